/* The header's unread badge (#notification-count) loads itself once by htmx after the page. A write the page
   makes through htmx (confirming a result, answering a step) may have read or made a notification, so after
   each one the badge is asked again, once: its own fetch and the page's reads never ask (no polling, no loop). */
"use strict";
(function () {
  document.addEventListener("htmx:afterRequest", function (event) {
    var badge = document.getElementById("notification-count");
    var detail = event.detail || {};
    if (!badge || (detail.elt && badge.contains(detail.elt))) return;
    var verb = ((detail.requestConfig && detail.requestConfig.verb) || "get").toLowerCase();
    if (verb === "get") return;
    if (window.htmx) window.htmx.trigger(document.body, "notifications-changed");
  });
})();
