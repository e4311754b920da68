// The TV view pages itself: each list shows the items that fit its box, then the next ones every few seconds.
(function () {
  "use strict";
  const tv = document.getElementById("tv");
  if (!tv) return;
  const every = (parseFloat(tv.dataset.pageS) || 12) * 1000;
  let turn = 0;

  function pages(pager) {
    // split the items into pages that fit the pager's height, by their measured heights
    const items = [...pager.querySelectorAll(".item")];
    items.forEach(function (el) { el.hidden = false; });
    const room = pager.clientHeight;
    const gap = parseFloat(getComputedStyle(pager).rowGap) || 0;
    const out = [[]];
    let used = 0;
    for (const el of items) {
      const h = el.getBoundingClientRect().height + gap;
      if (used + h > room + gap && out[out.length - 1].length) { out.push([]); used = 0; }
      out[out.length - 1].push(el);
      used += h;
    }
    return out;
  }

  function show() {
    for (const section of tv.querySelectorAll("section")) {
      const pager = section.querySelector(".pager");
      if (!pager) continue;
      const split = pages(pager);
      const now = turn % split.length;
      split.forEach(function (page, i) { page.forEach(function (el) { el.hidden = i !== now; }); });
      const no = section.querySelector(".pageno");
      if (no) no.textContent = split.length > 1 ? "(" + (now + 1) + "/" + split.length + ")" : "";
      section.dataset.pages = String(split.length);
      section.dataset.page = String(now + 1);
    }
  }

  show();
  setInterval(function () { turn += 1; show(); }, every);
  document.addEventListener("club-refreshed", show);
  window.addEventListener("resize", show);
})();
