// The lobby follows the games by itself: while it is on the screen it reads its own page
// again now and then and puts in the new lists of games, unless the player is in the
// middle of using one of them (a button or link focused there). Only a change of what
// the lists say counts (each page has its own form tokens). News comes by the lobby's
// stream the moment it is committed (issue 42): the lobby then reads itself at once, and
// its own rounds are only a safety net while the stream is open.
(function () {
  "use strict";
  var games = document.getElementById("lobby-games");
  if (!games || !window.fetch || !window.DOMParser) return;
  var every = parseInt(games.getAttribute("data-ms"), 10) || 10000;
  var SAFETY_NET_MS = 60000;
  var streaming = false, timer = null;
  function later(ms) {
    window.clearTimeout(timer);
    timer = window.setTimeout(check, ms);
  }
  function pace() { return streaming ? SAFETY_NET_MS : every; }
  var url = games.getAttribute("data-stream");
  if (url && window.EventSource) {
    var source = new EventSource(url);
    source.addEventListener("hello", function () { streaming = true; });
    source.addEventListener("news", function () { later(0); });
    source.addEventListener("error", function () { streaming = false; later(every); });
  }
  function check() {
    if (document.hidden || games.contains(document.activeElement)) {
      later(every);
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
        later(pace());
      })
      .catch(function () { later(every * 2); });
  }
  later(every);
})();
