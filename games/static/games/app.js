// Every page: the service worker (the offline page, push notifications; templates/sw.js),
// and the "Notify me on this device" switch (templates/_push_switch.html), which asks the
// browser for a push subscription and stores it at /api/push-subscriptions/.
"use strict";
(function () {
  var worker = document.currentScript.dataset.worker;
  // A browser whose push service cannot be reached may never answer a subscription: the
  // switch gives up after this long and says so, rather than stay greyed for minutes.
  var GIVE_UP_MS = 10000;
  var box = document.querySelector("[data-push-switch]");
  if (!("serviceWorker" in navigator)) {
    if (box) { unsupported(box); }
    return;
  }
  var registered = navigator.serviceWorker.register(worker, { scope: "/" });
  if (box) { setUp(box, registered); }

  function unsupported(box) {
    box.hidden = false;
    box.querySelector("input[role=switch]").disabled = true;
    box.querySelector(".push-state").textContent = box.dataset.unsupported;
  }

  function keyBytes(text) {
    var raw = atob((text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }

  function sameKey(buffer, bytes) {
    var held = new Uint8Array(buffer || []);
    return held.length === bytes.length && held.every(function (b, i) { return b === bytes[i]; });
  }

  function setUp(box, registered) {
    if (!("PushManager" in window) || !("Notification" in window)) { unsupported(box); return; }
    var input = box.querySelector("input[role=switch]");
    var state = box.querySelector(".push-state");
    var csrf = box.querySelector("input[name=csrfmiddlewaretoken]").value;
    box.hidden = false;

    function say(name) { state.textContent = box.dataset[name] || ""; }

    function api(method, body) {
      return fetch(box.dataset.api, {
        method: method,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf },
        body: body ? JSON.stringify(body) : undefined,
      }).then(function (response) {
        if (!response.ok) { throw new Error("refused"); }
        return response.status === 204 ? null : response.json();
      });
    }

    function inTime(promise) {
      return Promise.race([promise, new Promise(function (resolve, reject) {
        setTimeout(function () { reject(new Error("timeout")); }, GIVE_UP_MS);
      })]);
    }

    function subscribe() {
      // The person's answer to the browser's question takes the time it takes; what
      // follows it must answer in time.
      return Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { throw new Error("denied"); }
        return inTime(Promise.all([navigator.serviceWorker.ready, api("GET")]));
      }).then(function (found) {
        var manager = found[0].pushManager, key = keyBytes(found[1].public_key);
        return manager.getSubscription().then(function (old) {
          // A subscription made for another key (the site's changed) cannot be reused.
          if (old && !sameKey(old.options.applicationServerKey, key)) {
            return old.unsubscribe().then(function () { return null; });
          }
          return old;
        }).then(function (old) {
          return old || inTime(manager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
        });
      }).then(function (subscription) {
        return api("POST", subscription.toJSON());
      }).then(function () { return true; });
    }

    function unsubscribe() {
      return navigator.serviceWorker.ready.then(function (registration) {
        return registration.pushManager.getSubscription();
      }).then(function (subscription) {
        if (!subscription) { return false; }
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return api("DELETE", { endpoint: endpoint });
        }).then(function () { return false; });
      });
    }

    registered.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      var on = Boolean(subscription) && Notification.permission === "granted";
      input.checked = on;
      say(on ? "on" : Notification.permission === "denied" ? "denied" : "off");
      // The server's copy follows the device: new keys, or another player signed in here.
      if (on) { api("POST", subscription.toJSON()).catch(function () {}); }
    }).catch(function () { say("off"); });

    input.addEventListener("change", function () {
      input.disabled = true;
      (input.checked ? subscribe() : unsubscribe()).then(function (on) {
        input.checked = on;
        say(on ? "on" : "off");
      }, function (error) {
        input.checked = false;
        var known = error && (error.message === "denied" || error.message === "timeout");
        say(known ? error.message : "failed");
      }).then(function () { input.disabled = false; });
    });
  }
})();
