// The emailed sign-in link carries its code in the fragment (after "#"), which the browser
// sends to no server and in no Referer. Copy it into the form (the person still presses
// "Sign in": mail scanners open links too) and drop it from the address bar and history.
"use strict";
(function () {
  var field = document.getElementById("sign-in-code");
  var code = decodeURIComponent(window.location.hash.slice(1));
  if (field && code && !field.value) {
    field.value = code;
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
})();
