/* The four-minute limit for choosing inducements (rules/blitzbowl.md "Pre-match sequence"), counted down as
   mm:ss in the element #countdown. A guide for the table, kept in this browser only: the server does not
   enforce it. The deadline is kept in sessionStorage per match and team, so buying (a reload without
   JavaScript's swaps) does not start the clock again. */
(function () {
  "use strict";

  function clock(seconds) {
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function deadlineFor(box, seconds) {
    var key = "dugout-countdown:" + box.getAttribute("data-key");
    var deadline = NaN;
    try {
      deadline = parseInt(window.sessionStorage.getItem(key), 10);
    } catch (e) {
      /* storage refused: count from now */
    }
    if (!(deadline > 0)) {
      deadline = Date.now() + seconds * 1000;
      try {
        window.sessionStorage.setItem(key, String(deadline));
      } catch (e) {
        /* storage refused: the clock restarts with the page */
      }
    }
    return deadline;
  }

  function start(box) {
    if (box.getAttribute("data-started")) {
      return;
    }
    box.setAttribute("data-started", "true");
    var seconds = parseInt(box.getAttribute("data-seconds"), 10);
    var out = box.querySelector("#countdown");
    var over = box.querySelector(".countdown-over");
    if (!(seconds > 0) || !out) {
      return;
    }
    var deadline = deadlineFor(box, seconds);
    var timer = null;

    function tick() {
      var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      out.textContent = clock(left);
      box.setAttribute("data-left", String(left));
      if (left === 0) {
        box.classList.add("expired");
        if (over) {
          over.hidden = false;
        }
        if (timer !== null) {
          window.clearInterval(timer);
        }
      }
    }

    tick();
    timer = window.setInterval(tick, 250);
  }

  function startAll() {
    var boxes = document.querySelectorAll("[data-countdown]");
    for (var i = 0; i < boxes.length; i += 1) {
      start(boxes[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", startAll);
  } else {
    startAll();
  }
})();
