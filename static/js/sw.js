/* Dugout's service worker (served at /sw.js by matches.live_page): keeps the live match sheet and the static
   files it needs, so the sheet opens again with no signal. Pages are fetched from the network first (a fresh
   sheet when there is signal), the cached copy otherwise; static files from the cache first. API calls are
   never touched: the sheet's script queues its events itself.
   It also shows the Web Push messages of a user's notifications (the payload `{"title", "body", "url", "tag"}`
   the delivery sends) and, on a click, brings the page of the notification forward or opens it. */
"use strict";
var CACHE = "dugout-live-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function isSheet(url) { return /^\/matches\/\d+\/live\/$/.test(url.pathname); }

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(
      caches.open(CACHE).then(function (cache) {
        return cache.match(request).then(function (hit) {
          var fresh = fetch(request).then(function (response) {
            if (response.ok) cache.put(request, response.clone());
            return response;
          }).catch(function (error) {
            if (hit) return hit;
            throw error;
          });
          return hit || fresh;
        });
      })
    );
  } else if (isSheet(url)) {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      }).catch(function () {
        return caches.match(request).then(function (hit) {
          return hit || new Response("No signal, and this sheet was never opened here.", { status: 503 });
        });
      })
    );
  }
});

/* A push: one notification, shown at once (userVisibleOnly). A notification with the same tag replaces the
   earlier one (the same match's news). A payload that is not JSON is shown as its text. */
function pushPayload(data) {
  if (!data) return {};
  try {
    var parsed = data.json();
    return parsed && typeof parsed === "object" ? parsed : { body: String(parsed) };
  } catch (error) {
    return { body: data.text() };
  }
}

/* Only a page of this site is opened from a notification; anything else opens the notifications page. */
function notificationTarget(url) {
  var fallback = new URL("/notifications/", self.location.origin);
  if (!url) return fallback.href;
  try {
    var target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : fallback.href;
  } catch (error) {
    return fallback.href;
  }
}

self.addEventListener("push", function (event) {
  var payload = pushPayload(event.data);
  var options = { body: payload.body || "", data: { url: notificationTarget(payload.url) } };
  if (payload.tag) options.tag = String(payload.tag);
  event.waitUntil(self.registration.showNotification(payload.title || "Dugout", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = notificationTarget(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === target && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(target);
    })
  );
});
