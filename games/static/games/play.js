// The game page: choose a move by clicking the boards, and follow the game while you wait.
// Every legal move comes with its clicks ("steps"); a board element carries the pick(s) it
// makes in data-pick (several in a row separated by spaces, alternatives by "|"). Only picks
// that lead to a legal move are offered. Without JavaScript the form's list still works.
(function () {
  "use strict";

  function setUpPicking() {
    var data = document.getElementById("legal-moves");
    var form = document.getElementById("move-form");
    if (!data || !form) return;
    var moves = JSON.parse(data.textContent);
    var select = document.getElementById("move-select");
    var typed = document.getElementById("move-typed");
    var choices = document.getElementById("choices");
    var chosen = [];
    var elements = Array.prototype.slice.call(document.querySelectorAll("[data-pick]"));

    function candidates() {
      return moves.filter(function (m) {
        for (var i = 0; i < chosen.length; i++) {
          if (!m.steps[i] || m.steps[i][0] !== chosen[i]) return false;
        }
        return true;
      });
    }

    // The picks an element would make now, if they lead to a legal move.
    function usable(el, open) {
      var alternatives = el.getAttribute("data-pick").split("|");
      for (var a = 0; a < alternatives.length; a++) {
        var picks = alternatives[a].trim().split(/\s+/);
        var fits = open.some(function (m) {
          for (var i = 0; i < picks.length; i++) {
            var step = m.steps[chosen.length + i];
            if (!step || step[0] !== picks[i]) return false;
          }
          return true;
        });
        if (fits) return picks;
      }
      return null;
    }

    function button(label, onClick, cls) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      if (cls) b.className = cls;
      b.addEventListener("click", onClick);
      choices.appendChild(b);
      return b;
    }

    function render() {
      var open = candidates();
      choices.innerHTML = "";
      elements.forEach(function (el) {
        el.classList.remove("pickable", "preview");
        el.classList.toggle("picked", chosen.length > 0 && usable(el, open) === null &&
          el.getAttribute("data-pick").split("|").some(function (alt) {
            return alt.trim().split(/\s+/).every(function (p) { return chosen.indexOf(p) >= 0; });
          }));
      });
      var done = open.filter(function (m) { return m.steps.length === chosen.length; });
      if (done.length === 1) {
        var move = done[0];
        select.value = move.move;
        typed.value = "";
        elements.forEach(function (el) {
          var picks = el.getAttribute("data-pick").split("|").map(function (s) { return s.trim(); });
          if (picks.some(function (p) { return move.preview.indexOf(p) >= 0; })) el.classList.add("preview");
        });
        var summary = document.createElement("p");
        summary.className = "chosen";
        summary.textContent = "Your move: " + move.move + " — " +
          move.steps.map(function (s) { return s[1]; }).join(", ");
        choices.appendChild(summary);
        button("Confirm " + move.move, function () { form.submit(); }, "confirm").id = "confirm-pick";
        button("Start over", reset, "secondary");
        return;
      }
      var next = [];
      var labels = {};
      open.forEach(function (m) {
        var step = m.steps[chosen.length];
        if (step && !(step[0] in labels)) { labels[step[0]] = step[1]; next.push(step[0]); }
      });
      if (chosen.length > 0 && next.length === 1) { chosen.push(next[0]); render(); return; }
      elements.forEach(function (el) { if (usable(el, open)) el.classList.add("pickable"); });
      next.forEach(function (pick) {
        var b = button(labels[pick], function () { chosen.push(pick); render(); }, "choice");
        b.setAttribute("data-choice", pick);
      });
      if (chosen.length) button("Start over", reset, "secondary");
    }

    function reset() { chosen = []; select.value = ""; render(); }

    elements.forEach(function (el) {
      el.addEventListener("click", function (event) {
        var picks = usable(el, candidates());
        if (!picks) return;
        event.stopPropagation();
        chosen = chosen.concat(picks);
        render();
      });
    });
    render();
  }

  function setUpPolling() {
    var poll = document.getElementById("poll");
    if (!poll || !window.fetch) return;
    var seq = poll.getAttribute("data-seq");
    var every = parseInt(poll.getAttribute("data-ms"), 10) || 4000;
    function check() {
      fetch(poll.getAttribute("data-url"), { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) {
          if (answer && String(answer.last_seq) !== seq) { window.location.reload(); return; }
          window.setTimeout(check, every);
        })
        .catch(function () { window.setTimeout(check, every * 2); });
    }
    window.setTimeout(check, every);
  }

  setUpPicking();
  setUpPolling();
})();
