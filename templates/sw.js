// azulsite's service worker: the page shown offline, and the push notifications
// (games/notify/channels/push: {title, body, url, tag, kind}), which open their game on a tap.
"use strict";
const CACHE = "azulsite-offline-1";
const OFFLINE = "{{ offline_url|escapejs }}";
const ICON = "{{ icon_url|escapejs }}";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([OFFLINE, ICON, "{{ css_url|escapejs }}"]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  // Pages only: everything else goes to the network as if there were no worker.
  if (event.request.mode !== "navigate") {
    return;
  }
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)));
});

self.addEventListener("push", (event) => {
  const message = event.data ? event.data.json() : {};
  const shown = self.registration.showNotification(message.title || "azulsite", {
    body: message.body || "",
    tag: message.tag,
    icon: ICON,
    badge: ICON,
    data: { url: message.url || "/" },
  }).then(() => self.clients.matchAll({ type: "window", includeUncontrolled: true }))
    .then((windows) => windows.forEach((client) => client.postMessage({ type: "push-shown", message })));
  event.waitUntil(shown);
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      // The game's window if one is open, else one of the site's windows taken there (an
      // installed app has one), else a new one.
      const open = windows.find((client) => client.url === url);
      if (open) {
        return open.focus();
      }
      const other = windows.find((client) => "navigate" in client);
      if (other) {
        return other.navigate(url).then((client) => client && client.focus());
      }
      return self.clients.openWindow(url);
    })
  );
});
