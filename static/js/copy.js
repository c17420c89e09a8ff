/* "Copy" buttons: a button with data-copy="<id>" copies that field's value (a private calendar's address, a link
   code, an interactions URL) and says so in its data-copied words for two seconds; where the clipboard is not
   available (plain http), the field's text is selected for the user to copy. One listener on the document, so
   a part swapped in by htmx needs nothing more, and loading the file twice adds no second listener. */
(function () {
  "use strict";
  if (window.dugoutCopy) {
    return;
  }
  window.dugoutCopy = true;

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) {
      return;
    }
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) {
      return;
    }
    event.preventDefault();
    var select = function () {
      field.focus();
      field.select();
    };
    if (!navigator.clipboard || !window.isSecureContext) {
      select();
      return;
    }
    navigator.clipboard.writeText(field.value).then(function () {
      var label = button.textContent;
      button.textContent = button.getAttribute("data-copied") || label;
      window.setTimeout(function () {
        button.textContent = label;
      }, 2000);
    }, select);
  });
})();
