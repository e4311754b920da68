// Keeps a club night's page live (hub/evenings/templates/club_live.html): a file, not inline, so the
// pages' Content-Security-Policy (hub/headers.py) runs it.
(function(){
  var source = new EventSource(document.currentScript.dataset.events);
  var busy = false, again = false;
  function refresh(){
    busy = true; again = false;
    fetch(location.pathname + location.search, {headers:{"accept":"text/html"}}).then(function(r){return r.text();}).then(function(html){
      var doc = new DOMParser().parseFromString(html, "text/html");
      document.querySelectorAll("[data-live]").forEach(function(old){
        var fresh = doc.getElementById(old.id);
        var busyHere = old.contains(document.activeElement) || old.querySelector("details[open]");
        if (fresh && !busyHere) old.replaceWith(fresh);
      });
      document.body.dataset.refreshed = String((+document.body.dataset.refreshed || 0) + 1);
      document.dispatchEvent(new Event("club-refreshed"));
      busy = false;
      if (again) setTimeout(refresh, 300);
    }).catch(function(){busy = false;});
  }
  source.onmessage = function(){ if (busy) { again = true; return; } setTimeout(refresh, 150); };
})();
