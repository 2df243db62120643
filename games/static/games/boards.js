// Shared by the game page and the replay: outline the latest move on the boards.
(function () {
  "use strict";

  // The latest move outlined where its tiles came from and where they went.
  function markLastMove() {
    var last = document.getElementById("last-move");
    if (!last) return;
    var spots = last.getAttribute("data-spots").split(/\s+/);
    var seat = last.getAttribute("data-seat");
    var scopes = [document.getElementById("table-area"), document.querySelector("figure[data-seat='" + seat + "']")];
    scopes.forEach(function (scope) {
      if (!scope) return;
      Array.prototype.forEach.call(scope.querySelectorAll("[data-spot]"), function (el) {
        if (spots.indexOf(el.getAttribute("data-spot")) >= 0) el.classList.add("last-move");
      });
    });
  }

  window.azulsite = { markLastMove: markLastMove };
})();
