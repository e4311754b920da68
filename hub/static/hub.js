// Keeps the hub's pages live: one server-sent-event stream per page, the DOM updated in place.
(function () {
  "use strict";
  const body = document.body;
  const page = body.dataset.page;
  const printButton = document.querySelector("[data-print]");
  if (printButton) printButton.addEventListener("click", function () { window.print(); });
  if (page !== "overview" && page !== "table") return;
  const lang = body.dataset.lang;
  const words = JSON.parse(document.getElementById("words").textContent);
  const skew = parseFloat(body.dataset.now) * 1000 - Date.now(); // server clock minus ours
  const query = new URLSearchParams({ lang: lang });
  if (body.dataset.cafe) query.set("cafe", body.dataset.cafe);
  if (body.dataset.table) query.set("table", body.dataset.table);

  function card(key) { return document.querySelector('.card[data-key="' + CSS.escape(key) + '"]'); }

  function newCard(news) {
    if (page !== "overview") return null;
    const tpl = document.getElementById("card-template");
    const el = tpl.content.firstElementChild.cloneNode(true);
    const key = news.cafe + "/" + news.table;
    el.dataset.key = key;
    const link = el.querySelector(".tname");
    link.href = "/table/" + key;
    link.textContent = words.table + " " + news.table;
    el.querySelector(".game").textContent = words.nogame;
    const empty = document.getElementById("empty");
    if (empty) empty.remove();
    document.getElementById("tables").appendChild(el);
    return el;
  }

  function setScores(el, players, scores, turn) {
    const ul = el.querySelector(".scores");
    ul.replaceChildren();
    for (const p of players) {
      const li = document.createElement("li");
      if (p === turn) li.className = "turn";
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = p;
      const b = document.createElement("b");
      b.textContent = scores[p] === undefined ? 0 : scores[p];
      li.append(name, " ", b);
      ul.appendChild(li);
    }
  }

  function onStatus(news) {
    const el = card(news.cafe + "/" + news.table) || newCard(news);
    if (!el) return;
    const s = news.status;
    el.classList.toggle("online", news.online);
    el.classList.toggle("offline", !news.online);
    el.querySelector(".state").textContent = news.online ? words.online : words.offline;
    if (!news.online) return;
    el.querySelector(".game").textContent = news.game_title || words.nogame;
    el.querySelector(".turn").textContent = s.finished ? words.over : (s.turn ? words.to_play.replace("{p}", s.turn) : "");
    setScores(el, s.players || [], s.scores || {}, s.turn);
    if (page === "table" && s.game_uid && body.dataset.gameUid && s.game_uid !== body.dataset.gameUid) {
      location.reload(); // a new game began at this table
    }
  }

  function showResult(el, news) {
    // the card's last finished game: its winners and a link to it, as the server renders them
    const out = el.querySelector(".result");
    if (!out) return;
    out.replaceChildren();
    const winners = news.winners || [];
    if (winners.length) {
      const b = document.createElement("b");
      b.className = "winners";
      b.textContent = winners.join(", ");
      out.append(words.winners + ": ", b, " · ");
    }
    const link = document.createElement("a");
    link.className = "gamelink";
    link.href = "/games/" + [news.cafe, news.table, news.game_uid].map(encodeURIComponent).join("/");
    link.textContent = words.lastgame;
    out.append(link);
  }

  function onRecord(news) {
    const el = card(news.cafe + "/" + news.table) || newCard(news);
    if (!el) return;
    el.dataset.received = news.received;
    if (news.kind !== "event") return;
    const last = el.querySelector(".last");
    if (last) {
      last.classList.toggle("rejected", !news.ok);
      last.querySelector(".text").textContent = news.text;
      last.querySelector(".verdict").textContent = news.verdict;
      last.dataset.n = news.n;
    }
    const moves = document.getElementById("moves");
    if (moves && (!body.dataset.gameUid || news.game_uid === body.dataset.gameUid)) {
      body.dataset.gameUid = news.game_uid;
      const li = document.createElement("li");
      li.className = "fresh" + (news.ok ? "" : " rejected");
      if (news.seq) li.value = news.seq;
      li.dataset.n = news.n;
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = news.text;
      const verdict = document.createElement("span");
      verdict.className = "verdict";
      verdict.textContent = news.verdict;
      li.append(text, " ", verdict);
      moves.prepend(li);  // the latest first: on a phone it is at the top, not 60 lines down
      const none = document.getElementById("no-moves");
      if (none) none.hidden = true;
    }
  }

  function ago() {
    const now = (Date.now() + skew) / 1000;
    for (const el of document.querySelectorAll(".card")) {
      const at = parseFloat(el.dataset.received);
      const out = el.querySelector(".ago");
      if (!out || !at) continue;
      const s = Math.max(0, Math.round(now - at));
      const text = s < 5 ? words.now : (s < 90 ? s + " s" : (s < 5400 ? Math.round(s / 60) + " min" : Math.round(s / 3600) + " h"));
      out.textContent = s < 5 ? text : (lang === "de" ? "vor " + text : text + " " + words.ago);
    }
  }

  // "live" only while this page hears the hub and the hub hears the broker (the tables).
  const link = { page: false, broker: body.dataset.broker !== "0" };
  function showLink() {
    const up = link.page && link.broker;
    document.getElementById("live").hidden = !up;
    document.getElementById("lost").hidden = up;
  }

  let source;
  function connect() {
    source = new EventSource("/events?" + query.toString());
    source.onopen = function () { link.page = true; showLink(); };
    source.onerror = function () { link.page = false; showLink(); };
    source.onmessage = function (e) {
      const news = JSON.parse(e.data);
      if (news.type === "link") { link.broker = news.broker; showLink(); }
      else if (news.type === "status") onStatus(news);
      else if (news.type === "record") onRecord(news);
      else if (news.type === "game" && news.ended && news.status !== "playing") {
        // a game's result once the hub replayed it through its referee (never what the table's end claimed)
        const el = card(news.cafe + "/" + news.table);
        if (el) showResult(el, news);
      }
      window.hubLastNews = news;
    };
  }
  connect();
  ago();
  setInterval(ago, 1000);
})();
