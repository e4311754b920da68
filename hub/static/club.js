// Keeps a club night's page live: on the evening's news the page is fetched again and its live parts swapped
// (those marked data-live), unless staff are busy in one (a focused field, an open form).
(function () {
  "use strict";
  const evening = document.body.dataset.evening;
  if (!evening) return;
  const source = new EventSource("/club/" + encodeURIComponent(evening) + "/events");
  let busy = false, again = false;
  function refresh() {
    busy = true; again = false;
    fetch(location.pathname + location.search, { headers: { accept: "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        const doc = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live]").forEach(function (old) {
          const fresh = doc.getElementById(old.id);
          const inUse = old.contains(document.activeElement) || old.querySelector("details[open]");
          if (fresh && !inUse) old.replaceWith(fresh);
        });
        document.body.dataset.refreshed = String((+document.body.dataset.refreshed || 0) + 1);
        document.dispatchEvent(new Event("club-refreshed"));
        busy = false;
        if (again) setTimeout(refresh, 300);
      })
      .catch(function () { busy = false; });
  }
  source.onmessage = function () { if (busy) { again = true; return; } setTimeout(refresh, 150); };
})();
