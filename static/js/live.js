/* The live match sheet (templates/matches/live.html): taps become events, each with a key of its own.
   Every event goes to the server as it happens (POST …/draft/); without a signal it waits in a queue kept in
   localStorage, shown on the sheet, and the queue is sent in order once the signal is back. The server keeps a
   key once, so an event sent twice (an answer lost on the way back) is never counted twice.
   What the sheet offers (kinds, labels, options, what adds to the score) is the ruleset's, read from data-*. */
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) return;
  var api = root.dataset.api;
  var matchUrl = root.dataset.matchUrl;
  var csrf = root.dataset.csrf;
  var closed = root.dataset.closed === "true";
  var declared = JSON.parse(root.dataset.declared);
  var kinds = {};
  declared.forEach(function (k) { kinds[k.kind] = k; });
  var QUEUE = "dugout-live-queue-" + root.dataset.match;
  var SHEET = "dugout-live-sheet-" + root.dataset.match;

  var server = load(SHEET, { events: [] }).events;
  var queue = load(QUEUE, []);
  var picked = [];
  var waiting = null;  // an event waiting for its option
  var online = navigator.onLine;
  var current = null;  // the drain under way

  function load(key, fallback) {
    try { var v = JSON.parse(localStorage.getItem(key)); return v === null ? fallback : v; } catch (e) { return fallback; }
  }
  function save() { localStorage.setItem(QUEUE, JSON.stringify(queue)); }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }
  function $all(selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }
  function playerName(id) { var b = document.getElementById("player-" + id); return b ? b.textContent : "#" + id; }
  function teamName(id) { var s = root.querySelector('.live-team[data-team="' + id + '"]'); return s ? s.dataset.name : "team " + id; }
  function optionLabel(kind, value) {
    var found = (kinds[kind] ? kinds[kind].options : []).filter(function (o) { return o.value === value; })[0];
    return found ? found.label : value;
  }

  /* The sheet as the server has it, then the queue on top (events not yet sent, undos not yet sent). */
  function view() {
    var events = server.map(function (e) { return Object.assign({}, e, { pending: false }); });
    queue.forEach(function (item) {
      if (item.op === "add") {
        if (!events.some(function (e) { return e.key === item.key; })) {
          events.push(Object.assign({ key: item.key, undone: false, pending: true }, item.event));
        }
      } else {
        events.forEach(function (e) { if (e.key === item.key && !e.undone) { e.undone = true; e.pending = true; } });
      }
    });
    return events;
  }

  function describe(e) {
    var k = kinds[e.kind] || { label: e.kind };
    var who = e.player ? playerName(e.player) : (e.players && e.players.length ? e.players.map(playerName).join(", ") : "");
    var text = k.label + (e.option ? " (" + optionLabel(e.kind, e.option) + ")" : "") + " — " + (who ? who + ", " : "") + teamName(e.team);
    return text;
  }

  function render() {
    var events = view();
    var score = {};
    $all(".live-score").forEach(function (o) { score[o.dataset.team] = 0; });
    events.forEach(function (e) {
      if (!e.undone && kinds[e.kind] && String(e.team) in score) score[e.team] += kinds[e.kind].score;
    });
    $all(".live-score").forEach(function (o) { o.textContent = String(score[o.dataset.team]); });
    var log = document.getElementById("live-log");
    log.textContent = "";
    events.forEach(function (e) {
      var li = document.createElement("li");
      li.dataset.key = e.key;
      li.dataset.kind = e.kind;
      li.className = (e.undone ? "live-undone " : "") + (e.pending ? "live-pending" : "live-saved");
      var text = e.undone ? document.createElement("del") : document.createElement("span");
      text.textContent = describe(e);
      li.appendChild(text);
      if (e.pending) {
        var note = document.createElement("small");
        note.textContent = " · waiting for signal";
        li.appendChild(note);
      }
      log.appendChild(li);
    });
    var pickedTeam = picked.length ? teamOf(picked[0]) : null;
    $all(".live-player").forEach(function (b) {
      b.setAttribute("aria-pressed", picked.indexOf(Number(b.dataset.player)) >= 0 ? "true" : "false");
    });
    $all(".live-kind:not(.live-team-kind)").forEach(function (b) {
      var k = kinds[b.dataset.kind];
      b.disabled = closed || !(k.pick === "players" ? picked.length >= 1 : picked.length === 1);
    });
    $all(".live-team-kind").forEach(function (b) { b.disabled = closed; });
    $all(".live-options").forEach(function (d) { d.hidden = !waiting || waiting.kind !== d.dataset.kind; });
    document.getElementById("live-picked").textContent = picked.length
      ? "Picked: " + picked.map(playerName).join(", ") + " (" + teamName(pickedTeam) + ")"
      : "Tap a player, then what happened.";
    document.getElementById("live-undo").disabled = closed || !events.some(function (e) { return !e.undone; });
    document.getElementById("live-submit").disabled = closed;
    var status = document.getElementById("live-status");
    var unsent = queue.length;
    status.dataset.state = !online ? "offline" : (unsent ? "saving" : "online");
    status.dataset.unsent = String(unsent);
    status.textContent = !online
      ? "No signal: " + unsent + " event(s) kept on this phone; they are sent when the signal is back."
      : (unsent ? "Saving " + unsent + " event(s)…" : "Every event is saved.");
  }

  function teamOf(player) {
    var b = document.getElementById("player-" + player);
    return b ? Number(b.dataset.team) : null;
  }

  function showError(text) {
    var p = document.getElementById("live-error");
    p.textContent = text || "";
    p.hidden = !text;
  }

  function message(data) {
    if (!data) return "The server refused that.";
    if (data.detail) return data.detail;
    return Object.keys(data).map(function (k) {
      var v = data[k];
      return k + ": " + (Array.isArray(v) ? v.join(" ") : (typeof v === "object" ? JSON.stringify(v) : v));
    }).join(" ");
  }

  function send(url, body) {
    return fetch(url, {
      method: body === undefined ? "GET" : "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  function accept(data) {
    if (!data || !Array.isArray(data.events)) return;
    server = data.events;
    localStorage.setItem(SHEET, JSON.stringify(data));
    warn(data.waiting);
  }

  /* Someone else's step holds the result up (the server says who, and where): warn before the match is played
     out, not at "Submit result". The page opens with the warning as the server rendered it; each answer of the
     sheet's API keeps it true as the other coach acts. */
  function warn(waiting) {
    var box = document.getElementById("live-waiting");
    if (!box || !waiting) return;
    box.hidden = closed || !waiting.blocked;
    if (!waiting.blocked) return;
    document.getElementById("live-waiting-text").textContent = box.dataset.lead + " " + waiting.message;
    if (waiting.url) document.getElementById("live-waiting-link").setAttribute("href", waiting.url);
  }

  function setOnline(value) { online = value; render(); }

  /* Send the queue in order, one at a time; stop at the first failure of the connection and try again later. */
  async function run() {
    while (queue.length) {
      var item = queue[0];
      var url = item.op === "undo" ? api + "undo/" : api;
      var body = Object.assign({ key: item.key }, item.op === "undo" ? {} : item.event);
      var response;
      try {
        response = await send(url, body);
      } catch (e) {
        setOnline(false);
        return;
      }
      if (response.status >= 500) { setOnline(false); return; }
      var data = null;
      try { data = await response.json(); } catch (e) { data = null; }
      if (response.status === 401 || response.status === 403) {
        // Signed out (or no longer allowed): the events stay on this phone until someone who may keeps them.
        showError(message(data) + " The unsent events stay on this phone.");
        return;
      }
      queue.shift();
      save();
      if (response.ok) { accept(data); } else { showError(message(data)); }
      online = true;
      render();
    }
  }
  function drain() {
    if (current) return current;
    current = run().finally(function () { current = null; render(); });
    return current;
  }

  async function refresh() {
    if (current || queue.length) return;
    try {
      var response = await send(api);
      if (response.ok) { online = true; accept(await response.json()); }
    } catch (e) { online = false; }
    render();
  }

  function add(event) {
    queue.push({ op: "add", key: newKey(), event: event });
    picked = [];
    waiting = null;
    save();
    showError("");
    render();
    drain();
  }

  root.addEventListener("click", function (ev) {
    var b = ev.target.closest("button");
    if (!b || !root.contains(b) || b.disabled) return;
    if (b.classList.contains("live-player")) {
      var id = Number(b.dataset.player);
      if (picked.length && teamOf(picked[0]) !== Number(b.dataset.team)) picked = [];
      var at = picked.indexOf(id);
      if (at >= 0) picked.splice(at, 1); else picked.push(id);
      waiting = null;
      render();
    } else if (b.classList.contains("live-kind")) {
      var k = kinds[b.dataset.kind];
      var event = { kind: k.kind, option: "" };
      if (k.pick === "team") {
        event.team = Number(b.dataset.team);
      } else if (k.pick === "players") {
        event.team = teamOf(picked[0]);
        event.players = picked.slice();
      } else {
        event.team = teamOf(picked[0]);
        event.player = picked[0];
      }
      if (k.options.length) { waiting = event; render(); } else { add(event); }
    } else if (b.classList.contains("live-option") && waiting) {
      add(Object.assign({}, waiting, { option: b.dataset.option }));
    } else if (b.classList.contains("live-option-cancel")) {
      waiting = null;
      render();
    } else if (b.id === "live-undo") {
      var last = view().filter(function (e) { return !e.undone; }).pop();
      if (last) { queue.push({ op: "undo", key: last.key }); save(); render(); drain(); }
    } else if (b.id === "live-submit") {
      submit();
    }
  });

  async function submit() {
    showError("");
    await drain();
    if (queue.length) {
      showError("No signal: " + queue.length + " event(s) are not saved yet. Submit once the signal is back.");
      return;
    }
    var response;
    try {
      response = await send(api + "submit/", {});
    } catch (e) {
      setOnline(false);
      showError("No signal: the result can be submitted once the signal is back.");
      return;
    }
    var data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (response.ok) {
      localStorage.removeItem(SHEET);
      window.location.assign(matchUrl);
    } else {
      showError(message(data));
    }
  }

  window.addEventListener("online", function () { online = true; drain(); });
  window.addEventListener("offline", function () { setOnline(false); });
  setInterval(function () { if (queue.length) drain(); else refresh(); }, 3000);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* the sheet works without */ });
  }
  render();
  if (queue.length) drain(); else refresh();
})();
