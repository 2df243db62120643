// Buttons that copy a box's text: the account page's new API token, shown only once and
// too long to select by hand on a phone. A button says what it copied in the element
// named by its data-said; without this script it stays hidden and the box is selected
// by hand.
"use strict";
(function () {
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var box = document.getElementById(button.dataset.copy);
    var said = document.getElementById(button.dataset.said);
    button.hidden = false;
    button.addEventListener("click", function () {
      box.select();
      function copied() { said.textContent = button.dataset.copied; }
      function byCommand() { if (document.execCommand("copy")) copied(); }
      if (navigator.clipboard) navigator.clipboard.writeText(box.value).then(copied, byCommand);
      else byCommand();
    });
  });
})();
