// A tournament page whose round is being set up (its games created by a worker, a moment
// after the round was paired) looks again shortly, until the games are there.
(function () {
  "use strict";
  var note = document.getElementById("round-setting-up");
  if (!note) return;
  var ms = parseInt(note.getAttribute("data-reload-ms"), 10) || 3000;
  window.setTimeout(function () { window.location.reload(); }, ms);
})();
