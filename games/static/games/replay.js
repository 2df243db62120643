// The replay viewer: arrow keys, the buttons, the slider and the move list move through the
// game; each moment has its own address (?at=N) so it can be shared. A step is read from
// the server and put in place (no full page load), and the address always names the step
// shown (an odd ?at= is corrected to the moment the server showed).
(function () {
  "use strict";
  var view = document.getElementById("replay-view");
  var nav = document.getElementById("replay");
  if (!view || !nav) return;
  var moments = JSON.parse(nav.getAttribute("data-moments"));
  var index = parseInt(nav.getAttribute("data-index"), 10);
  var loading = null;

  function address(i) { return "?at=" + moments[i]; }

  function settle(swapped) {
    nav = document.getElementById("replay");
    index = parseInt(nav.getAttribute("data-index"), 10);
    window.azulsite.markLastMove();
    if (swapped && window.azulsite.bindSuggestion) window.azulsite.bindSuggestion();
    var current = document.querySelector("#move-list .current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  }

  function show(i, push) {
    i = Math.max(0, Math.min(moments.length - 1, i));
    if (!window.fetch || !window.DOMParser || !window.history.pushState) {
      if (i !== index) window.location.search = address(i);
      return;
    }
    var url = address(i);
    loading = url;
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (loading !== url) return; // a later step was asked for meanwhile
        var page = html && new DOMParser().parseFromString(html, "text/html");
        var fresh = page && page.getElementById("replay-view");
        if (!fresh) { window.location.search = url; return; }
        var focused = document.activeElement && document.activeElement.id;
        view.innerHTML = fresh.innerHTML;
        document.title = page.title;
        if (push) window.history.pushState({ at: moments[i] }, "", url);
        else window.history.replaceState({ at: moments[i] }, "", url);
        settle(true);
        if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
      })
      .catch(function () { window.location.search = url; });
  }

  function go(i) {
    i = Math.max(0, Math.min(moments.length - 1, i));
    if (i !== index) show(i, true);
  }

  document.addEventListener("keydown", function (e) {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName) && e.target.id !== "slider") return;
    if (e.key === "ArrowLeft") { e.preventDefault(); go(index - 1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); go(index + 1); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(moments.length - 1); }
  });
  view.addEventListener("change", function (e) {
    if (e.target && e.target.id === "slider") go(parseInt(e.target.value, 10));
  });
  // The step buttons and the move list's links: shown in place.
  view.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[href^='?at=']");
    if (!link || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    var at = parseInt(link.getAttribute("href").slice(4), 10);
    var i = moments.indexOf(at);
    if (i < 0) return;
    e.preventDefault();
    go(i);
  });
  window.addEventListener("popstate", function () {
    var at = parseInt(new URLSearchParams(window.location.search).get("at"), 10);
    var i = moments.indexOf(at);
    show(i < 0 ? moments.length - 1 : i, false);
  });
  // The address names the step shown, whatever ?at= asked for.
  var asked = new URLSearchParams(window.location.search).get("at");
  if (asked !== null && asked !== String(moments[index]) && window.history.replaceState) {
    window.history.replaceState({ at: moments[index] }, "", address(index));
  }
  window.azulsite.keepFocusInSight(function () { return document.getElementById("replay"); }, "top");
  settle(false);
})();
