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

  // What the keyboard reaches is never under a bar stuck to the screen's top or bottom
  // (WCAG 2.2, 2.4.11): the page scrolls just enough. (CSS scroll-padding would also scroll
  // the page each time a control in the bar itself took the focus.)
  function keepFocusInSight(bar, side) {
    document.addEventListener("focusin", function (event) {
      var over = bar();
      var el = event.target;
      if (!over || !el.getBoundingClientRect || over.contains(el)) return;
      var box = el.getBoundingClientRect(), edge = over.getBoundingClientRect();
      if (box.bottom <= edge.top || box.top >= edge.bottom) return;
      if (side === "top") window.scrollBy(0, box.top - edge.bottom - 8);
      else window.scrollBy(0, box.bottom - edge.top + 8);
    });
  }

  window.azulsite = { markLastMove: markLastMove, keepFocusInSight: keepFocusInSight };
})();
