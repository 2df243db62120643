// The create-game form: show the options of the chosen game and of the chosen time control.
(function () {
  "use strict";
  var form = document.getElementById("new-game");
  if (!form) return;
  var game = form.querySelector("[name=game]");
  var tc = form.querySelector("[name=time_control]");
  function update() {
    form.querySelectorAll(".game-option").forEach(function (p) {
      p.hidden = p.getAttribute("data-game") !== game.value;
    });
    form.querySelectorAll(".tc").forEach(function (p) {
      p.hidden = p.getAttribute("data-tc") !== tc.value;
    });
    // Without a time limit nobody runs out of time: the time-out options do not apply.
    form.querySelectorAll(".tc-timed").forEach(function (p) {
      p.hidden = tc.value === "none";
    });
  }
  game.addEventListener("change", update);
  tc.addEventListener("change", update);
  update();
})();
