// Post-game analysis: while it runs, a small poll moves the progress bar on and reloads the
// page once it is done (the marks and the accuracy are drawn by the server); on the replay,
// hovering, focusing or tapping the suggestion draws the computer's move on the board.
(function () {
  "use strict";
  var EVERY = 3000;
  var polling = false;
  function poll() {
    var box = document.getElementById("analysis");
    if (!box) { polling = false; return; }
    fetch(box.getAttribute("data-url"), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        if (!answer) { window.setTimeout(poll, EVERY * 2); return; }
        if (answer.status === "done") { window.location.reload(); return; }
        var bar = document.getElementById("analysis-bar");
        var text = document.getElementById("analysis-text");
        if (bar) { bar.max = Math.max(answer.total, 1); bar.value = answer.done; }
        if (text) text.textContent = answer.text;
        window.setTimeout(poll, EVERY);
      })
      .catch(function () { window.setTimeout(poll, EVERY * 2); });
  }
  // Also called by the game page when its live poll shows the end of the game.
  function watch() {
    var box = document.getElementById("analysis");
    var status = box && box.getAttribute("data-status");
    if (polling || !window.fetch || (status !== "queued" && status !== "running")) return;
    polling = true;
    window.setTimeout(poll, EVERY);
  }
  window.azulsite = window.azulsite || {};
  window.azulsite.watchAnalysis = watch;
  watch();

  // Called again by the replay when it shows another step in place.
  function bindSuggestion() {
  var card = document.getElementById("suggestion");
  var button = document.getElementById("show-suggestion");
  if (!card || !button) return;
  var spots = card.getAttribute("data-spots").split(/\s+/);
  var seat = card.getAttribute("data-seat");
  var pinned = false;
  function draw(on) {
    [document.getElementById("table-area"), document.querySelector("figure[data-seat='" + seat + "']")].forEach(function (scope) {
      if (!scope) return;
      Array.prototype.forEach.call(scope.querySelectorAll("[data-spot]"), function (el) {
        el.classList.toggle("suggested", on && spots.indexOf(el.getAttribute("data-spot")) >= 0);
      });
    });
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
  // The button, and the current move's mark in the move list, show it while hovered.
  [button, document.querySelector("#move-list li.current .mark")].forEach(function (el) {
    if (!el) return;
    el.addEventListener("mouseenter", function () { if (!pinned) draw(true); });
    el.addEventListener("mouseleave", function () { if (!pinned) draw(false); });
  });
  button.addEventListener("focus", function () { if (!pinned) draw(true); });
  button.addEventListener("blur", function () { if (!pinned) draw(false); });
  button.addEventListener("click", function () { pinned = !pinned; draw(pinned); });
  }
  window.azulsite.bindSuggestion = bindSuggestion;
  bindSuggestion();
})();
