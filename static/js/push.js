/* /account/'s "push messages on this device" (#push): registers the service worker (/sw.js, which shows the
   pushes), and turns pushes on — the notification permission, then pushManager.subscribe with the server's VAPID
   key (GET /api/v1/account/push/key/), then the subscription POSTed to /api/v1/account/push/subscriptions/ —
   or off (unsubscribe here, then DELETE it there). A subscription this browser already holds is POSTed again on
   load: the server answers the same one (or takes it over from whoever was signed in here before) and its id,
   which turning off needs. Every text shown comes from the section's data-text-* attributes (translated). */
"use strict";
(function () {
  var box = document.getElementById("push");
  if (!box) return;
  var state = document.getElementById("push-state");
  var onButton = document.getElementById("push-on");
  var offButton = document.getElementById("push-off");
  var serverId = null;

  function say(name, extra) {
    state.textContent = box.getAttribute("data-text-" + name) + (extra ? " " + extra : "");
    state.setAttribute("data-state", name);
  }

  function show(on) {
    onButton.hidden = on;
    offButton.hidden = !on;
    onButton.disabled = offButton.disabled = false;
    say(on ? "on" : "off");
  }

  function api(method, url, body) {
    var init = {
      method: method,
      credentials: "same-origin",
      headers: { "X-CSRFToken": box.getAttribute("data-csrf"), Accept: "application/json" },
    };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (response) {
      if (!response.ok && response.status !== 404) throw new Error("HTTP " + response.status);
      return response.status === 204 || response.status === 404 ? null : response.json();
    });
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function remember(subscription) {
    var json = subscription.toJSON();
    return api("POST", box.getAttribute("data-subscriptions-url"), { endpoint: json.endpoint, keys: json.keys })
      .then(function (saved) { serverId = saved.id; box.setAttribute("data-subscription", String(saved.id)); });
  }

  function failed(error) {
    onButton.disabled = offButton.disabled = false;
    say("failed", error && error.message ? error.message : String(error));
  }

  function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  function turnOn() {
    onButton.disabled = true;
    say("working");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        onButton.disabled = false;
        say("denied");
        return null;
      }
      return fetch(box.getAttribute("data-key-url"), { credentials: "same-origin" })
        .then(function (response) { return response.json(); })
        .then(function (body) {
          if (!body.public_key) {
            onButton.disabled = false;
            say("unconfigured");
            return null;
          }
          return registration().then(function (reg) {
            return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(body.public_key) });
          }).then(function (subscription) {
            return remember(subscription).then(function () { show(true); });
          });
        });
    }).catch(failed);
  }

  function turnOff() {
    offButton.disabled = true;
    say("working");
    registration().then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      return subscription ? subscription.unsubscribe() : true;
    }).then(function () {
      if (serverId === null) return null;
      return api("DELETE", box.getAttribute("data-subscriptions-url") + serverId + "/");
    }).then(function () {
      serverId = null;
      box.removeAttribute("data-subscription");
      show(false);
    }).catch(failed);
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }
  onButton.addEventListener("click", turnOn);
  offButton.addEventListener("click", turnOff);
  if (Notification.permission === "denied") {
    onButton.hidden = false;
    say("denied");
    return;
  }
  registration().then(function (reg) {
    return reg.pushManager.getSubscription();
  }).then(function (subscription) {
    if (!subscription) return show(false);
    return remember(subscription).then(function () { show(true); });
  }).catch(function (error) {
    show(false);
    failed(error);
  });
})();
