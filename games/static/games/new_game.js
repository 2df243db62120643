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
  // Games with computer players are not rated (GameResult.Excluded.ruling): the box says so
  // while computer players are chosen, and gets back the creator's choice without them.
  var bots = form.querySelector("[name=bots]");
  var rated = form.querySelector("[name=rated]");
  var ratedChosen = rated && rated.checked;
  function updateRated() {
    if (!bots || !rated) return;
    var withBots = bots.value !== "0";
    if (withBots && !rated.disabled) ratedChosen = rated.checked;
    rated.disabled = withBots;
    rated.checked = withBots ? false : ratedChosen;
    document.getElementById("rated-note").classList.toggle("muted", !withBots);
  }
  game.addEventListener("change", update);
  tc.addEventListener("change", update);
  if (bots) bots.addEventListener("change", updateRated);
  update();
  updateRated();
})();
