// The lobby follows the games by itself: while it is on the screen it reads its own page
// again now and then and puts in the new lists of games, unless the player is in the
// middle of using one of them (a button or link focused there). Only a change of what
// the lists say counts (each page has its own form tokens).
(function () {
  "use strict";
  var games = document.getElementById("lobby-games");
  if (!games || !window.fetch || !window.DOMParser) return;
  var every = parseInt(games.getAttribute("data-ms"), 10) || 10000;
  function check() {
    if (document.hidden || games.contains(document.activeElement)) {
      window.setTimeout(check, every);
      return;
    }
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("lobby-games");
          if (fresh && fresh.textContent !== games.textContent && !games.contains(document.activeElement)) {
            games.innerHTML = fresh.innerHTML;
          }
        }
        window.setTimeout(check, every);
      })
      .catch(function () { window.setTimeout(check, every * 2); });
  }
  window.setTimeout(check, every);
})();
