/* Dugout's service worker (served at /sw.js by matches.live_page): keeps the live match sheet and the static
   files it needs, so the sheet opens again with no signal. Pages are fetched from the network first (a fresh
   sheet when there is signal), the cached copy otherwise; static files from the cache first. API calls are
   never touched: the sheet's script queues its events itself. */
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
