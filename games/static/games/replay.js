// The replay viewer: arrow keys and the slider move through the game; each moment has its
// own address (?at=N) so it can be shared.
(function () {
  "use strict";
  var nav = document.getElementById("replay");
  if (!nav) return;
  var moments = JSON.parse(nav.getAttribute("data-moments"));
  var index = parseInt(nav.getAttribute("data-index"), 10);
  function go(i) {
    i = Math.max(0, Math.min(moments.length - 1, i));
    if (i !== index) window.location.search = "?at=" + moments[i];
  }
  document.addEventListener("keydown", function (e) {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName) && e.target.id !== "slider") return;
    if (e.key === "ArrowLeft") { e.preventDefault(); go(index - 1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); go(index + 1); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(moments.length - 1); }
  });
  var slider = document.getElementById("slider");
  slider.addEventListener("change", function () { go(parseInt(slider.value, 10)); });
  window.azulsite.markLastMove();
  var current = document.querySelector("#move-list .current");
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
})();
