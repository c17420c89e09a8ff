/* Bone Cruncher's Trainers (rules/bonecruncher.md "Wounds"): each Trainer's "remove a condition" select lists
   every player's conditions, one group per player, so the page works without JavaScript (the server refuses
   another player's condition). With JavaScript, only the chosen player's group is offered. The select names
   its player select in data-by-player and maps player ids to the groups' labels in data-player-names. */
(function () {
  "use strict";

  function narrow(select) {
    var form = select.form;
    var playerSelect = form && form.elements.namedItem(select.getAttribute("data-by-player"));
    if (!playerSelect) {
      return;
    }
    var names = {};
    try {
      names = JSON.parse(select.getAttribute("data-player-names") || "{}");
    } catch (e) {
      return;
    }
    var chosen = names[playerSelect.value];
    var groups = select.querySelectorAll("optgroup");
    for (var i = 0; i < groups.length; i++) {
      var other = chosen !== undefined && groups[i].label !== chosen;
      groups[i].hidden = other;
      groups[i].disabled = other;
    }
    var picked = select.options[select.selectedIndex];
    if (picked && picked.parentNode && picked.parentNode.disabled) {
      select.value = "";
    }
  }

  function narrowAll(root) {
    var selects = (root || document).querySelectorAll("select[data-by-player]");
    for (var i = 0; i < selects.length; i++) {
      narrow(selects[i]);
    }
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target && target.form && target.tagName === "SELECT" && !target.hasAttribute("data-by-player")) {
      narrowAll(target.form);
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    narrowAll(event.target);
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () {
      narrowAll(document);
    });
  } else {
    narrowAll(document);
  }
})();
