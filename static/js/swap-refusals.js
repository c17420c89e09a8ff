/* A refused form (400 or 409) answers with its panel re-rendered around the error message: swap it in like
   a success, so the coach reads why. Kept in a file rather than an hx-on attribute, because hx-on needs eval,
   which the Content-Security-Policy forbids. Applies to every element marked data-swap-refusals. */
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.target;
    if (!target || !target.closest || !target.closest("[data-swap-refusals]")) {
      return;
    }
    var status = event.detail.xhr.status;
    if (status === 400 || status === 409) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
