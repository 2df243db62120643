// The game page: choose a move on the boards, and follow the game without reloading.
// Every legal move comes with its clicks ("steps"); a board element carries the pick(s) it
// makes in data-pick (several in a row separated by spaces, alternatives by "|"). Only picks
// that lead to a legal move are offered, on the board and as buttons. Without JavaScript
// the form's list still works.
(function () {
  "use strict";

  var chosen = []; // the half-made choice: kept when the page's parts are updated
  var made = []; // how long the choice was before each of the player's acts (Escape undoes one)
  var unread = 0;
  var turnOpen = false; // the page shows the player's move panel
  var stopFollowing = function () {};
  var stepBack = function () { return false; }; // Escape, while a move is being chosen

  function $(id) { return document.getElementById(id); }

  function alternatives(el) {
    return el.getAttribute("data-pick").split("|").map(function (alt) { return alt.trim().split(/\s+/); });
  }

  function setUpPicking() {
    var data = $("legal-moves");
    var form = $("move-form");
    if (!data || !form) { chosen = []; turnOpen = false; return; }
    // Each pick and each step's words are sent once, in "picks" and "labels"; a move
    // names them by index: [move, [[pick, words], …], [previewed pick, …]].
    var packed = JSON.parse(data.textContent);
    var pick = function (i) { return packed.picks[i]; };
    var moves = packed.moves.map(function (m) {
      return { move: m[0], preview: m[2].map(pick), steps: m[1].map(function (s) { return [pick(s[0]), packed.labels[s[1]]]; }) };
    });
    var select = $("move-select");
    var typed = $("move-typed");
    var choices = $("choices");
    var said = $("chosen");
    var confirm = $("confirm-move");
    var startOver = $("start-over");
    var turn = $("turn-piece");
    var elements = Array.prototype.slice.call(document.querySelectorAll("[data-pick]"));

    function candidates() {
      return moves.filter(function (m) {
        for (var i = 0; i < chosen.length; i++) {
          if (!m.steps[i] || m.steps[i][0] !== chosen[i]) return false;
        }
        return true;
      });
    }

    // On a narrow screen a piece whose hit area is under 44 px is not a target of its own
    // (a tap near its edge would pick a neighbour): a tap picks its group (a factory, the
    // centre, a star), and what it would pick is a button in the move bar.
    function tooSmall(el) {
      if (!narrowScreen()) return false;
      var box = el.getBoundingClientRect();
      return box.width < 44 || box.height < 44;
    }

    // On a narrow screen a picked group drawn with data-zoom (a star of six spaces) fills
    // its picture, so that the pieces in it are big enough to tap.
    function zoom() {
      var shown = narrowScreen() ? elements.filter(function (el) {
        return el.hasAttribute("data-zoom") && el.classList.contains("picked");
      }) : [];
      Array.prototype.forEach.call(document.querySelectorAll("svg[data-viewbox]"), function (svg) {
        if (shown.some(function (el) { return el.ownerSVGElement === svg; })) return;
        svg.setAttribute("viewBox", svg.getAttribute("data-viewbox"));
        svg.removeAttribute("data-zoomed");
      });
      shown.forEach(function (el) {
        var svg = el.ownerSVGElement;
        var region = el.getAttribute("data-zoom");
        if (!svg.hasAttribute("data-viewbox")) svg.setAttribute("data-viewbox", svg.getAttribute("viewBox"));
        svg.setAttribute("viewBox", region);
        if (svg.getAttribute("data-zoomed") !== region) {
          svg.setAttribute("data-zoomed", region);
          bringIntoView(svg);
        }
      });
    }

    // The zoomed picture wholly on the screen, above the move bar.
    function bringIntoView(svg) {
      var box = svg.getBoundingClientRect();
      var panel = $("move-panel");
      var free = panel ? panel.getBoundingClientRect().top : window.innerHeight;
      if (box.top < 0 || box.bottom > free) window.scrollBy(0, box.top - 8);
    }

    // A step whose picks start with "turn:" turns the piece just placed: the first way is
    // chosen at once, and the Turn button or a tap again on the piece goes to the next.
    function isTurn(pick) { return pick.indexOf("turn:") === 0; }

    function turns() {
      var last = chosen[chosen.length - 1];
      if (!last || !isTurn(last)) return [];
      var before = chosen.slice(0, -1);
      var ways = [];
      moves.forEach(function (m) {
        for (var i = 0; i < before.length; i++) {
          if (!m.steps[i] || m.steps[i][0] !== before[i]) return;
        }
        var step = m.steps[before.length];
        if (step && ways.indexOf(step[0]) < 0) ways.push(step[0]);
      });
      return ways;
    }

    // The piece being turned: the element of the pick made before the turn.
    function isPlaced(el) {
      var placed = chosen[chosen.length - 2];
      return alternatives(el).some(function (picks) { return picks[picks.length - 1] === placed; });
    }

    function turnOnce() {
      var ways = turns();
      if (ways.length < 2) return;
      var at = ways.indexOf(chosen[chosen.length - 1]);
      chosen[chosen.length - 1] = ways[(at + 1) % ways.length];
      render();
    }

    // The picks an element would make now, if they lead to a legal move.
    function usable(el, open) {
      if (tooSmall(el)) return null;
      var alts = alternatives(el);
      for (var a = 0; a < alts.length; a++) {
        var picks = alts[a];
        // A tile on a factory already chosen picks just its colour.
        while (picks.length > 1 && chosen.indexOf(picks[0]) >= 0) picks = picks.slice(1);
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

    // What a target is and what a tap on it does: its own title only (a group's pieces
    // have theirs), left out when the steps' words already say it ("the orange star") or
    // when it makes several steps at once (a factory's tile: "factory 2, take 2 blue
    // tiles").
    function labelOf(el, picks, open) {
      var title = el.querySelector(":scope > title");
      var move = open.find(function (m) {
        return picks.every(function (pick, i) { return m.steps[chosen.length + i] && m.steps[chosen.length + i][0] === pick; });
      });
      var label = move ? picks.map(function (pick, i) { return move.steps[chosen.length + i][1]; }).join(", ") : "";
      if (!title || picks.length > 1 || label.indexOf(title.textContent) >= 0) return label;
      return title.textContent + ": " + label;
    }

    // The start, up to a comma, that every one of several choices' words begins with: on a
    // phone the bar shows each choice without it, so that two fit on a row (issue 53).
    function sharedStart(words) {
      if (words.length < 2) return "";
      var end = words[0].lastIndexOf(", ") + 2;
      while (end > 1) {
        var start = words[0].slice(0, end);
        if (words.every(function (w) { return w.indexOf(start) === 0 && w.length > end; })) return start;
        end = words[0].lastIndexOf(", ", end - 3) + 2;
      }
      return "";
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

    function choose(picks) {
      var focusWasInChoices = choices.contains(document.activeElement);
      made.push(chosen.length);
      chosen = chosen.concat(picks);
      render();
      if (focusWasInChoices) {
        var next = choices.querySelector("button") || document.querySelector("svg .key[tabindex='0']");
        focusInView(confirm.disabled ? next : confirm || next);
      }
    }

    function render() {
      var open = candidates();
      if (!open.length) { chosen = []; open = moves; }
      choices.innerHTML = "";
      var done = open.filter(function (m) { return m.steps.length === chosen.length; });
      var first = open[0];
      var words = chosen.map(function (pick, i) { return first.steps[i][1]; });
      said.textContent = words.length ? words.join(" → ") : "";
      startOver.hidden = chosen.length === 0;
      if (turn) turn.hidden = turns().length < 2;
      elements.forEach(function (el) {
        el.classList.remove("pickable", "preview");
        el.removeAttribute("data-words");
        el.classList.toggle("picked", chosen.length > 0 && alternatives(el).some(function (picks) {
          return picks.every(function (p) { return chosen.indexOf(p) >= 0; });
        }));
      });
      zoom();
      if (done.length === 1) {
        var move = done[0];
        select.value = move.move;
        typed.value = "";
        elements.forEach(function (el) {
          if (alternatives(el).some(function (picks) { return move.preview.indexOf(picks.join(" ")) >= 0; })) {
            el.classList.add("preview");
          }
        });
        said.textContent = words.join(" → ") + "  (" + move.move + ")";
        confirm.disabled = false;
        if (turn && !turn.hidden) {
          // The piece being turned is a target: a tap turns it once more.
          elements.forEach(function (el) {
            if (!isPlaced(el)) return;
            el.classList.add("pickable");
            el.setAttribute("data-words", turn.textContent.trim());
          });
        }
        arrangeBoards();
        return;
      }
      select.value = "";
      confirm.disabled = !typed.value.trim();
      var next = [];
      var labels = {};
      open.forEach(function (m) {
        var step = m.steps[chosen.length];
        if (step && !(step[0] in labels)) { labels[step[0]] = step[1]; next.push(step[0]); }
      });
      if (chosen.length > 0 && next.length && (next.length === 1 || next.every(isTurn))) { chosen.push(next[0]); render(); return; }
      var onBoard = {};
      elements.forEach(function (el) {
        var picks = usable(el, open);
        if (!picks) return;
        el.classList.add("pickable");
        el.setAttribute("data-words", labelOf(el, picks, open));
        onBoard[picks[0]] = true;
      });
      arrangeBoards();
      // On a narrow screen the bar offers only what the boards cannot (a colour of a
      // factory whose tiles are too small to tap, a pass): a choice that is a target on
      // a board is tapped there (or reached there by keyboard), so that the bar stays
      // low while showing every one of its choices (issue 53).
      if (narrowScreen()) next = next.filter(function (pick) { return !onBoard[pick]; });
      var shared = sharedStart(next.map(function (pick) { return labels[pick]; }));
      next.forEach(function (pick) {
        var b = button(labels[pick].slice(shared.length), function () { choose([pick]); }, "choice");
        b.setAttribute("data-choice", pick);
        // The words the buttons share ("the red star, ") are said once, above them; a
        // screen reader still hears each button's whole name.
        if (shared) b.setAttribute("aria-label", labels[pick]);
      });
    }

    // The boards for the keyboard and screen readers (issue 56). Each target has a key: a
    // clear rectangle over it that is the button, named by the target's words (the letters
    // and numbers drawn on a tile are no part of its name, so the button holds none of
    // them). A target inside another (a factory's tile inside the factory) is the one with
    // a button; the outer one still answers a click. A picture with targets is a group of
    // buttons, its drawing hidden from screen readers; without targets it is an image
    // again. Tab stops once in each picture, on the target last reached there (a roving
    // tabindex); the arrow keys go from target to target.
    function arrangeBoards() {
      var pickable = elements.filter(function (el) { return el.classList.contains("pickable"); });
      var targets = pickable.filter(function (el) {
        return !pickable.some(function (other) { return other !== el && el.contains(other); });
      });
      elements.forEach(function (el) {
        var key = keyOf(el, targets.indexOf(el) >= 0);
        if (!key) return;
        ["role", "tabindex", "aria-label"].forEach(function (name) { key.removeAttribute(name); });
        if (targets.indexOf(el) < 0) return;
        key.setAttribute("role", "button");
        key.setAttribute("tabindex", "-1");
        key.setAttribute("aria-label", el.getAttribute("data-words"));
      });
      pictures().forEach(function (svg) {
        var own = targets.filter(function (el) { return el.ownerSVGElement === svg; });
        Array.prototype.forEach.call(svg.querySelectorAll("[data-quiet]"), function (el) {
          el.removeAttribute("aria-hidden");
          el.removeAttribute("data-quiet");
        });
        svg.setAttribute("role", own.length ? "group" : "img");
        if (!own.length) return;
        quiet(svg, own);
        var current = own.filter(function (el) { return el.contains(document.activeElement); })[0] ||
          own.filter(function (el) { return el.getAttribute("data-pick") === svg.getAttribute("data-current"); })[0] || own[0];
        keyOf(current).setAttribute("tabindex", "0");
      });
    }

    // The key of a board element (made when it first becomes a target).
    function keyOf(el, make) {
      var key = el.querySelector(":scope > .key");
      if (key || !make) return key;
      var box = el.getBBox();
      key = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      key.setAttribute("class", "key");
      [["x", box.x - 2], ["y", box.y - 2], ["width", box.width + 4], ["height", box.height + 4]].forEach(function (a) {
        key.setAttribute(a[0], a[1]);
      });
      key.setAttribute("rx", "4");
      el.appendChild(key);
      return key;
    }

    function keyed(el) {
      var key = keyOf(el);
      return !!key && key.getAttribute("role") === "button";
    }

    function pictures() {
      var found = [];
      elements.forEach(function (el) {
        if (el.ownerSVGElement && found.indexOf(el.ownerSVGElement) < 0) found.push(el.ownerSVGElement);
      });
      return found;
    }

    // What a screen reader would read of a picture besides its targets' keys: hidden.
    function quiet(parent, targets) {
      Array.prototype.forEach.call(parent.children, function (child) {
        if (targets.indexOf(child) >= 0) {
          Array.prototype.forEach.call(child.children, function (part) {
            if (!part.classList.contains("key")) hide(part);
          });
        } else if (targets.some(function (el) { return child.contains(el); })) {
          quiet(child, targets);
        } else {
          hide(child);
        }
      });
    }

    function hide(el) {
      el.setAttribute("aria-hidden", "true");
      el.setAttribute("data-quiet", "");
    }

    function targetsOf(svg) {
      return elements.filter(function (el) { return el.ownerSVGElement === svg && keyed(el); });
    }

    function rove(el) {
      var svg = el.ownerSVGElement;
      targetsOf(svg).forEach(function (other) {
        keyOf(other).setAttribute("tabindex", other === el ? "0" : "-1");
      });
      svg.setAttribute("data-current", el.getAttribute("data-pick"));
      focusInView(keyOf(el));
    }

    // The target an arrow key goes to from ``el``: the nearest one that way in its picture
    // (a step along the arrow counts less than one across it), else the next or previous
    // one in the picture's order; Home and End go to its first and last.
    var ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
    function neighbour(el, key) {
      var all = targetsOf(el.ownerSVGElement);
      if (key === "Home") return all[0];
      if (key === "End") return all[all.length - 1];
      var way = ARROWS[key];
      if (!way) return null;
      var from = centre(el), best = null, bestCost = Infinity;
      all.forEach(function (other) {
        if (other === el) return;
        var to = centre(other);
        var along = (to.x - from.x) * way[0] + (to.y - from.y) * way[1];
        var across = Math.abs((to.x - from.x) * way[1]) + Math.abs((to.y - from.y) * way[0]);
        if (along <= 1) return;
        var cost = along + 2 * across;
        if (cost < bestCost) { bestCost = cost; best = other; }
      });
      if (best) return best;
      var at = all.indexOf(el) + (way[0] + way[1] > 0 ? 1 : -1);
      return all[(at + all.length) % all.length];
    }

    function centre(el) {
      var box = el.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }

    // Escape steps back: the last choice made is undone (with those that followed from it
    // alone), and the keyboard is put on the first target offered again.
    stepBack = function () {
      if (!chosen.length) return false;
      while (made.length && made[made.length - 1] >= chosen.length) made.pop();
      var keep = made.length ? made.pop() : chosen.length - 1;
      while (keep >= 0) {
        chosen = chosen.slice(0, keep);
        render();
        if (chosen.length <= keep) break;
        keep = made.length ? made.pop() : keep - 1;
      }
      var first = document.querySelector("svg .key[tabindex='0']") || choices.querySelector("button");
      if (first) focusInView(first);
      return true;
    };

    function reset() { chosen = []; render(); }

    elements.forEach(function (el) {
      function activate(event) {
        var turning = turns().length > 1;
        if (turning && isPlaced(el)) {
          event.stopPropagation();
          event.preventDefault();
          turnOnce();
          return;
        }
        // While a piece is being turned, a tap on another place moves it there.
        var kept = turning ? chosen.slice(0, -2) : chosen;
        var saved = chosen;
        chosen = kept;
        var picks = usable(el, candidates());
        if (!picks) { chosen = saved; return; }
        event.stopPropagation();
        event.preventDefault();
        var first = chosen.length === 0;
        made.push(chosen.length);
        chosen = chosen.concat(picks);
        render();
        if (first) bringSourcesAndBoardIntoView(el);
        if (!confirm.disabled) focusInView(confirm);
        else if (keyed(el)) focusInView(keyOf(el));
        else {
          var next = document.querySelector("svg .key[tabindex='0']") || choices.querySelector("button");
          if (next) focusInView(next);
        }
      }
      el.addEventListener("click", activate);
      el.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { activate(event); return; }
        if (!keyed(el) || !keyOf(el).contains(event.target)) return;
        var next = neighbour(el, event.key);
        if (!next) return;
        event.preventDefault();
        rove(next);
      });
      el.addEventListener("focusin", function (event) {
        if (keyed(el) && event.target === keyOf(el)) rove(el);
      });
    });
    if (turn) turn.addEventListener("click", turnOnce);
    startOver.addEventListener("click", function () {
      reset();
      var first = choices.querySelector("button");
      if (first) first.focus();
    });
    typed.addEventListener("input", function () {
      if (typed.value.trim()) { chosen = []; render(); confirm.disabled = false; }
    });
    select.addEventListener("change", function () {
      var picked = select.value;
      var move = moves.find(function (m) { return m.move === picked; });
      chosen = move ? move.steps.map(function (s) { return s[0]; }) : [];
      render();
    });
    var panel = $("move-panel");
    var preselect = panel && panel.getAttribute("data-preselect");
    if (preselect && !chosen.length) {
      var named = moves.find(function (m) { return m.move === preselect; });
      if (named) chosen = named.steps.map(function (s) { return s[0]; });
    }
    form.addEventListener("submit", function () { chosen = []; });
    render();
    if (!turnOpen) { turnOpen = true; showFirstTarget(); }
  }

  // The keyboard's focus moved as the player goes on, scrolling no more than it takes to
  // show the element above the move bar (a focus() alone would scroll it to the middle
  // of the screen, and the sources just brought to the top would leave it).
  function focusInView(el) {
    if (!el) return;
    el.focus({ preventScroll: true });
    var box = el.getBoundingClientRect();
    var panel = $("move-panel");
    var bottom = panel && narrowScreen() && !panel.contains(el) ? panel.getBoundingClientRect().top : window.innerHeight;
    if (box.bottom > bottom) window.scrollBy(0, box.bottom - bottom + 8);
    else if (box.top < 0) window.scrollBy(0, box.top - 8);
  }

  function narrowScreen() {
    return !!(window.matchMedia && window.matchMedia("(max-width: 999px)").matches);
  }

  // A turn begins (the page opens on it, or its move panel arrives while the player waits):
  // its first target is brought onto the screen, above the move bar. The page was left where
  // the player's last move ended (often their own board, with the sources above the screen).
  function showFirstTarget() {
    var first = document.querySelector("[data-pick].pickable");
    var panel = $("move-panel");
    if (!first || !panel) return;
    var free = narrowScreen() ? panel.getBoundingClientRect().top : window.innerHeight;
    var box = first.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= free) return;
    stopFollowing();
    bringAreaToTop(first);
    box = first.getBoundingClientRect();
    if (box.top < 0 || box.bottom > free) window.scrollBy(0, box.bottom - free + 8);
  }

  // The sources (or the player's own board, for a piece picked beside it) at the top of the
  // screen.
  function bringAreaToTop(picked) {
    var area = picked.closest("figure.mine") || $("table-area");
    if (!area) return;
    var top = area.getBoundingClientRect().top;
    if (Math.abs(top) > 4) window.scrollBy(0, top);
  }

  // On a narrow screen, once the first piece is picked, the sources go to the top of the
  // screen so that the player's own board (drawn right below them) is in view too, above
  // the move bar: no scroll between picking and placing. A first pick on the player's own
  // board (a Summer Pavilion tile beside it) brings that board to the top instead.
  function bringSourcesAndBoardIntoView(picked) {
    if (narrowScreen()) bringAreaToTop(picked);
  }

  // A move or an undo reloads the page: it comes back where the player was.
  var SCROLL_KEY = "azulsite-scroll:" + window.location.pathname;
  function keepScrollAcrossSubmit() {
    var area = document.querySelector(".play-area");
    if (!area || !window.sessionStorage) return;
    area.addEventListener("submit", function () {
      try { window.sessionStorage.setItem(SCROLL_KEY, String(window.scrollY)); } catch (e) { /* private mode */ }
    });
    var kept = null;
    try { kept = window.sessionStorage.getItem(SCROLL_KEY); window.sessionStorage.removeItem(SCROLL_KEY); } catch (e) { kept = null; }
    if (kept === null) return;
    var y = parseInt(kept, 10) || 0;
    window.scrollTo(0, y);
    if (window.scrollY >= y - 1 || !window.ResizeObserver) return;
    // The page ends before the place kept, and parts shown a moment later (the push
    // switch) lengthen it: follow them there, until the player scrolls themselves.
    var follow = new ResizeObserver(function () {
      if (window.scrollY < y) window.scrollTo(0, y);
    });
    follow.observe(document.body);
    function stop() { follow.disconnect(); }
    stopFollowing = stop;
    ["wheel", "touchstart", "keydown"].forEach(function (name) {
      window.addEventListener(name, stop, { once: true, passive: true });
    });
    window.setTimeout(stop, 3000);
  }

  function scrollMovesToLatest() {
    var list = $("move-list");
    if (list) list.scrollTop = list.scrollHeight;
  }

  function chatInView() {
    var chat = $("part-chat");
    if (!chat || document.hidden) return false;
    var box = chat.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  }

  function showUnread(baseTitle) {
    // The badge by the chat, and its twin at the top of the page (a link down to the chat).
    ["unread", "unread-top"].forEach(function (id) {
      var badge = $(id);
      if (!badge) return;
      badge.hidden = unread === 0;
      badge.textContent = unread ? (id === "unread-top" ? "\uD83D\uDCAC " : "") + unread : "";
    });
    document.title = (unread ? "(" + unread + ") " : "") + baseTitle;
  }

  function setUpLive() {
    var live = $("live");
    if (!live || !window.fetch) return;
    var seq = live.getAttribute("data-seq");
    var chat = live.getAttribute("data-chat");
    var every = parseInt(live.getAttribute("data-ms"), 10) || 3000;
    var soonEvery = parseInt(live.getAttribute("data-soon-ms"), 10) || every;
    // Whether the move awaited is seconds away (a computer's, or the player's plan
    // answering): the page then checks every soonEvery, as long as something keeps
    // happening (a stopped worker must not leave pages polling fast for good).
    var soon = live.getAttribute("data-soon") === "1";
    var SOON_FOR_MS = 30000;
    // A tab in the background checks less often; its title still says "Your turn".
    var HIDDEN_SLOWER = 4;
    var changedAt = Date.now();
    var timer = null, checking = false, over = false;
    var title = document.title;
    function clearUnread() { if (unread && chatInView()) { unread = 0; showUnread(title); } }
    // News of the game comes by its stream the moment it is committed (issue 42): the page
    // then checks at once, and its own checks are only a safety net. While the stream is
    // down (reconnecting), or when the site holds none (it answers 204), the page polls.
    var streaming = false, again = false;
    var SAFETY_NET_MS = 60000;
    function interval() {
      if (streaming) return SAFETY_NET_MS;
      if (document.hidden) return every * HIDDEN_SLOWER;
      return soon && Date.now() - changedAt < SOON_FOR_MS ? soonEvery : every;
    }
    function now() {
      if (checking) again = true;
      else checkIn(0);
    }
    function listen() {
      var url = live.getAttribute("data-stream");
      if (!url || !window.EventSource) return;
      var source = new EventSource(url);
      source.addEventListener("hello", function (event) {
        streaming = true;
        // A move may have come between the page and its stream.
        var said = JSON.parse(event.data);
        if (String(said.seq) !== seq || String(said.chat) !== chat) now();
        else if (!checking) checkIn(interval());
      });
      source.addEventListener("news", now);
      source.addEventListener("error", function () {
        streaming = false;
        if (over) source.close();
        else if (!checking) checkIn(interval());
      });
      live.stream = source;
    }
    function checkIn(ms) {
      window.clearTimeout(timer);
      timer = window.setTimeout(check, ms);
    }
    document.addEventListener("visibilitychange", clearUnread);
    // Back in view: look at once rather than after a background tab's long interval.
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && !checking && !over) checkIn(0);
    });
    window.addEventListener("scroll", clearUnread, { passive: true });
    window.addEventListener("focus", clearUnread);
    function planBeingWritten() {
      return ["plan-text", "plan-next"].some(function (id) {
        var box = $(id);
        return box && box.value !== box.defaultValue;
      });
    }
    function replace(name, html) {
      var part = $("part-" + name);
      if (part) part.innerHTML = html;
    }
    function check() {
      checking = true;
      var url = live.getAttribute("data-url") + "?seq=" + encodeURIComponent(seq) + "&chat=" + encodeURIComponent(chat);
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) {
          if (answer && answer.reload) { window.location.reload(); return; }
          if (answer && answer.parts) {
            var parts = answer.parts;
            var moved = String(answer.seq) !== seq;
            if (moved) {
              soon = !!answer.soon;
              changedAt = Date.now();
              ["status", "end", "boards", "moves"].forEach(function (name) {
                if (name in parts) replace(name, parts[name]);
              });
              var hadPanel = !!$("move-panel");
              var focused = document.activeElement && document.activeElement.id;
              replace("panel", parts.panel || "");
              setUpPicking();
              window.azulsite.markLastMove();
              if (window.azulsite.watchAnalysis) window.azulsite.watchAnalysis();
              scrollMovesToLatest();
              if (focused && $(focused)) $(focused).focus();
              if (!hadPanel && $("move-panel")) $("confirm-move").disabled = true;
              title = answer.title || title;
              // The plan as it stands (trimmed by the moves played), unless the player is
              // writing one: then it is only hidden when their turn comes.
              if (!planBeingWritten()) replace("plan", parts.plan || "");
              else if (answer.my_turn) $("plan").hidden = true;
            }
            if ("chat" in parts) {
              var before = $("part-chat").querySelectorAll("li[data-id]").length;
              replace("chat", parts.chat);
              var after = $("part-chat").querySelectorAll("li[data-id]").length;
              if (!chatInView()) unread += Math.max(0, after - before);
              var messages = $("part-chat");
              messages.scrollTop = messages.scrollHeight;
            }
            seq = String(answer.seq);
            chat = String(answer.chat);
            showUnread(title);
          }
          checking = false;
          over = !!answer && answer.status !== "active";
          if (over && live.stream) live.stream.close();
          if (!over) checkIn(again ? 0 : interval());
          again = false;
        })
        .catch(function () { checking = false; checkIn(interval() * 2); });
    }
    listen();
    checkIn(interval());
  }

  // A page waiting for players reloads once the game begins.
  function setUpWaiting() {
    var poll = $("poll");
    if (!poll || !window.fetch) return;
    var seq = poll.getAttribute("data-seq");
    var every = parseInt(poll.getAttribute("data-ms"), 10) || 3000;
    function check() {
      fetch(poll.getAttribute("data-url"), { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) {
          // Started (its first events), or called off by its creator.
          if (answer && (String(answer.last_seq) !== seq || answer.status !== "open")) { window.location.reload(); return; }
          window.setTimeout(check, every);
        })
        .catch(function () { window.setTimeout(check, every * 2); });
    }
    window.setTimeout(check, every);
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !event.defaultPrevented && stepBack()) event.preventDefault();
  });
  window.azulsite.keepFocusInSight(function () { return narrowScreen() ? $("move-panel") : null; }, "bottom");

  // The place kept across a move first: a turn that begins then may move the page on.
  keepScrollAcrossSubmit();
  setUpPicking();
  window.azulsite.markLastMove();
  scrollMovesToLatest();
  var chatList = $("part-chat");
  if (chatList) chatList.scrollTop = chatList.scrollHeight;
  setUpLive();
  setUpWaiting();
})();
