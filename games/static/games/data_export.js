// The account page's "Your data": while the archive is queued or being built, a small poll
// moves the progress bar and its sentence on, and reloads the page once it is ready or
// failed (the download link and the button are drawn by the server).
(function () {
  "use strict";
  var EVERY = 3000;
  var box = document.getElementById("your-data");
  if (!box || !window.fetch) return;
  var status = box.getAttribute("data-status");
  if (status !== "queued" && status !== "building") return;
  function poll() {
    fetch(box.getAttribute("data-url"), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        if (!answer) { window.setTimeout(poll, EVERY * 2); return; }
        if (answer.status !== "queued" && answer.status !== "building") {
          window.location.reload();
          return;
        }
        var bar = document.getElementById("data-export-bar");
        var text = document.getElementById("data-export-text");
        if (bar) { bar.max = Math.max(answer.total, 1); bar.value = answer.done; }
        if (text && text.textContent !== answer.text) text.textContent = answer.text;
        window.setTimeout(poll, EVERY);
      })
      .catch(function () { window.setTimeout(poll, EVERY * 2); });
  }
  window.setTimeout(poll, EVERY);
})();
