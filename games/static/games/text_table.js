// The text table (issue 56): questions typed in the box are answered in the polite live
// region; anything else goes to the server as a move in notation (the parser of the email
// replies and the API, with its refusal). When the game's stream brings news, the table
// is read again and each new move is said once in words, the focus left where it was.
(function () {
  "use strict";

  function $(id) { return document.getElementById(id); }
  var live = $("text-live");
  if (!live) return;
  var words = {};
  Array.prototype.forEach.call($("text-words").children, function (li) { words[li.getAttribute("data-key")] = li.textContent; });
  var names = JSON.parse($("where-names").textContent);
  var said = $("said");
  var heard = {}; // the move list's entries already said (or on the page when it opened)

  function say(text) {
    // Emptied first, so that the same answer asked twice is said twice.
    said.textContent = "";
    window.setTimeout(function () { said.textContent = text; }, 50);
  }

  function textOf(id) {
    var el = $(id);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function entries() {
    return Array.prototype.slice.call(document.querySelectorAll("#move-list > li"));
  }

  function entryWords(li) {
    var part = li.querySelector(".words") || li.querySelector(".note-text");
    return (part || li).textContent.replace(/\s+/g, " ").trim();
  }

  function keyOf(li) { return li.getAttribute("data-end") || li.getAttribute("data-seq") || li.textContent; }

  function remember() {
    entries().forEach(function (li) { heard[keyOf(li)] = true; });
  }

  // The name a "where" question gives: a colour or object in the reader's words, the
  // notation's name or letter, or the first letters of a word.
  function named(asked) {
    asked = asked.toLowerCase();
    var keys = Object.keys(names);
    var said = function (key) { return names[key].map(function (n) { return n.toLowerCase(); }); };
    return keys.filter(function (key) { return said(key).indexOf(asked) >= 0; })[0] ||
      keys.filter(function (key) {
        return asked.length > 1 && said(key).some(function (n) { return n.indexOf(asked) === 0; });
      })[0] || null;
  }

  function where(asked) {
    var key = named(asked);
    if (!key) return words.unknown;
    var places = Array.prototype.slice.call(document.querySelectorAll("#part-table [data-counts]")).filter(function (li) {
      return (" " + li.getAttribute("data-counts")).indexOf(" " + key + ":") >= 0;
    }).map(function (li) { return li.textContent.trim(); });
    return places.length ? places.join(". ") : names[key][0] + ": " + words.nowhere;
  }

  function board(number) {
    var seat = number === null ? live.getAttribute("data-seat") : String(number - 1);
    if (seat === "") seat = "0";
    var part = $("part-p" + seat);
    if (!part) return words.unknown;
    var lines = [textOf("section-p" + seat)];
    Array.prototype.forEach.call(part.querySelectorAll("li"), function (li) { lines.push(li.textContent.trim()); });
    Array.prototype.forEach.call(part.querySelectorAll("tr"), function (tr) {
      var cells = Array.prototype.map.call(tr.querySelectorAll("td"), function (td) { return td.textContent.trim(); });
      var head = tr.querySelector("th");
      if (cells.length) lines.push(head.textContent.trim() + ": " + cells.join(", "));
    });
    return lines.join(". ");
  }

  function scores() {
    return Array.prototype.map.call(document.querySelectorAll("[id^='part-p']"), function (part) {
      var seat = part.id.slice("part-p".length);
      return textOf("section-p" + seat) + ", " + textOf("item-p" + seat + "-score");
    }).join(". ");
  }

  function lastMoves() {
    var all = entries().filter(function (li) { return !li.classList.contains("voided"); });
    var players = document.querySelectorAll("[id^='part-p']").length || 2;
    var last = all.slice(-players).map(entryWords);
    return last.length ? last.join(". ") : words.no_moves;
  }

  // A legal move, as typed (letters' case and spaces aside): its words, where its tiles
  // go, and what it scores at once.
  function wouldScore(typed) {
    var plain = function (text) { return text.toLowerCase().replace(/\s+/g, " ").trim(); };
    var select = $("legal-moves");
    if (!select) return words.not_your_turn;
    var option = Array.prototype.filter.call(select.options, function (o) { return plain(o.value) === plain(typed); })[0];
    if (!option) return words.not_legal;
    return option.textContent + ": " + option.getAttribute("data-scores");
  }

  function answer(question) {
    var parts = question.trim().split(/\s+/);
    var word = parts[0].toLowerCase(), rest = parts.slice(1).join(" ");
    var number = /^\d+$/.test(rest) ? parseInt(rest, 10) : null;
    if (word === "h" || word === "help" || (word === "?" && !rest)) return words.help;
    if (word === "f" && rest) return textOf("item-f" + rest) || textOf("item-" + rest.toUpperCase()) || words.unknown;
    if (word === "c" && !rest) return textOf("item-c") || words.unknown;
    if (word === "d" && !rest) {
      return Array.prototype.map.call(document.querySelectorAll("#part-table li"), function (li) { return li.textContent.trim(); }).join(". ");
    }
    if (word === "w" && rest) return where(rest);
    if (word === "b" && (!rest || number)) return board(number);
    if (word === "s" && !rest) return scores();
    if (word === "l" && !rest) return lastMoves();
    if (word === "t" && !rest) return textOf("status") + " " + textOf("clocks");
    if (word === "?" && rest) return wouldScore(rest);
    if (word === "m" && !rest) {
      var select = $("legal-moves");
      return select ? select.options.length + " " + words.legal : words.not_your_turn;
    }
    return null;
  }

  $("command-form").addEventListener("submit", function (event) {
    var box = $("command");
    var reply = answer(box.value);
    if (reply !== null) {
      event.preventDefault();
      say(reply);
      box.select();
    } else if (!$("legal-moves")) {
      event.preventDefault();
      say(words.not_your_turn);
    }
  });

  // News: the page read again, its changing parts put in place, each new move said.
  var checking = false, again = false;
  function refresh() {
    if (checking) { again = true; return; }
    checking = true;
    fetch(live.getAttribute("data-page"), { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        checking = false;
        var page = html && new DOMParser().parseFromString(html, "text/html");
        var body = page && page.getElementById("text-body");
        if (!body) return;
        var focused = document.activeElement && document.activeElement.id;
        $("text-body").replaceWith(body);
        $("ask-title").textContent = page.getElementById("ask-title").textContent;
        document.title = page.title;
        var seq = page.getElementById("text-live").getAttribute("data-seq");
        live.setAttribute("data-seq", seq);
        Array.prototype.forEach.call(document.querySelectorAll("#command-form .expected-seq"), function (input) { input.value = seq; });
        var fresh = entries().filter(function (li) { return !heard[keyOf(li)]; }).map(entryWords);
        remember();
        var news = fresh.slice();
        if (fresh.length) news.push(textOf("status"));
        if (news.length) say(news.join(". "));
        if (focused && $(focused) && document.activeElement !== $(focused)) $(focused).focus({ preventScroll: true });
        if (again) { again = false; refresh(); }
      })
      .catch(function () { checking = false; });
  }

  var streaming = false;
  if (window.EventSource) {
    var source = new EventSource(live.getAttribute("data-stream"));
    source.addEventListener("hello", function (event) {
      streaming = true;
      var told = JSON.parse(event.data);
      if (String(told.seq) !== live.getAttribute("data-seq")) refresh();
    });
    source.addEventListener("news", refresh);
    source.addEventListener("error", function () { streaming = false; });
  }
  // Without the stream, the table looks for news every few seconds.
  window.setInterval(function () {
    if (streaming || document.hidden) return;
    fetch(live.getAttribute("data-seq-url"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        if (answer && String(answer.last_seq) !== live.getAttribute("data-seq")) refresh();
      })
      .catch(function () { /* tried again at the next tick */ });
  }, 4000);

  // A move or an undo reloads the page: what came meanwhile (the move played, the
  // computer's answer) is said as news, the entries heard before kept across the load.
  var KEPT = "azulsite-heard:" + window.location.pathname;
  document.addEventListener("submit", function () {
    try { window.sessionStorage.setItem(KEPT, JSON.stringify(Object.keys(heard))); } catch (e) { /* private mode */ }
  });
  var before = null;
  try { before = JSON.parse(window.sessionStorage.getItem(KEPT)); window.sessionStorage.removeItem(KEPT); } catch (e) { before = null; }
  if (before) {
    before.forEach(function (key) { heard[key] = true; });
    var news = entries().filter(function (li) { return !heard[keyOf(li)]; }).map(entryWords);
    if (news.length) { news.push(textOf("status")); say(news.join(". ")); }
  }
  remember();
})();
