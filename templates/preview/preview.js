"use strict";
// The live preview: draws the cards from the state, then applies each update the server pushes.
// A picture's URL names its content hash, so only the cards whose drawing changed are fetched.
(function () {
  const SAFE_MM = 3, CORNER_MM = 3.175, CHANGED_MS = 1500;
  const cardsEl = document.getElementById("cards");
  const tiles = new Map();  // card key -> {tile, img, caption, card}
  let state = JSON.parse(document.getElementById("initial-state").textContent);
  let side = "face";
  window.deckgenSwaps = [];  // {key, hash, at}: when each new picture finished loading (tests, benchmarks)

  function imageUrl(hash, dpi) { return "/img/" + dpi + "/" + hash + ".png"; }
  function backCard() { return state.cards.find((card) => card.side === "back"); }
  // The backs view shows each card's own back (its kind's or its own back layout), else the deck's.
  function shownHash(card) { return side === "back" && card.side === "face" ? (card.back_hash || (backCard() ? backCard().hash : card.hash)) : card.hash; }
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function setGeometry(geometry) {
    if (!geometry) return;
    const [tw, th] = geometry.trim_mm, b = geometry.bleed_mm, root = document.documentElement.style;
    root.setProperty("--tw", tw); root.setProperty("--th", th); root.setProperty("--b", b);
    root.setProperty("--fw", tw + 2 * b); root.setProperty("--fh", th + 2 * b);
    root.setProperty("--s", SAFE_MM); root.setProperty("--r", CORNER_MM);
  }

  function cardFrame(hash, dpi, alt) {
    const frame = el("div", "card");
    const img = el("img");
    img.alt = alt; img.decoding = "async";
    img.src = imageUrl(hash, dpi);
    const safeFrame = el("div", "safe-frame");
    safeFrame.append(el("div", "safe"));
    frame.append(img, el("div", "trim"), safeFrame);
    return {frame, img};
  }

  function caption(card) {
    const box = el("figcaption");
    box.append(el("div", "name", card.name));
    const details = card.side === "back" ? "back" : card.code + " · ×" + card.count;
    box.append(el("div", "muted", details));
    const badges = el("div", "badges");
    for (const badge of card.badges) badges.append(el("span", "badge", badge));
    box.append(badges);
    return box;
  }

  function makeTile(card) {
    const tile = el("figure", "tile");
    tile.id = "card-" + card.key.replace(/[^\w-]/g, "_");
    tile.dataset.key = card.key;
    const button = el("button", "view");
    button.type = "button";
    button.title = "show at print resolution";
    const {frame, img} = cardFrame(shownHash(card), state.geometry.dpi, card.name);
    watchLoads(img, card.key);
    button.append(frame);
    button.addEventListener("click", () => zoom(card.key));
    const cap = caption(card);
    tile.append(button, cap);
    return {tile, img, caption: cap, card};
  }

  function watchLoads(img, key) {
    img.addEventListener("load", () => {
      img.dataset.loaded = img.src.split("/").pop().replace(".png", "");
      window.deckgenSwaps.push({key, hash: img.dataset.loaded, at: Date.now()});
    });
  }

  function render(changedKeys) {
    setGeometry(state.geometry);
    const seen = new Set();
    let previous = null;
    for (const card of state.cards) {
      seen.add(card.key);
      let entry = tiles.get(card.key);
      if (!entry) {
        entry = makeTile(card);
        tiles.set(card.key, entry);
      } else {
        const url = imageUrl(shownHash(card), state.geometry.dpi);
        if (!entry.img.src.endsWith(url)) entry.img.src = url;
        if (JSON.stringify(entry.card) !== JSON.stringify(card)) {
          const cap = caption(card);
          entry.caption.replaceWith(cap);
          entry.caption = cap;
          entry.img.alt = card.name;
        }
        entry.card = card;
      }
      // Keep the deck's order, moving only what moved.
      const wanted = previous ? previous.nextSibling : cardsEl.firstChild;
      if (wanted !== entry.tile) cardsEl.insertBefore(entry.tile, wanted);
      previous = entry.tile;
    }
    for (const [key, entry] of tiles) {
      if (!seen.has(key)) { entry.tile.remove(); tiles.delete(key); }
    }
    for (const key of changedKeys || []) outline(key, "changed");
    renderProblems();
    renderError();
  }

  function outline(key, className) {
    const entry = tiles.get(key);
    if (!entry) return;
    entry.tile.classList.add(className);
    setTimeout(() => entry.tile.classList.remove(className), CHANGED_MS);
  }

  function renderProblems() {
    const list = document.getElementById("problems");
    list.replaceChildren();
    let errors = 0, warnings = 0;
    for (const problem of state.problems || []) {
      if (problem.severity === "error") errors++; else warnings++;
      const item = el("li", "sev-" + problem.severity);
      item.append(document.createTextNode(problem.text + " "));
      if (problem.card && tiles.has(problem.card)) {
        const link = el("a", "", "show card");
        link.href = "#" + tiles.get(problem.card).tile.id;
        link.addEventListener("click", () => outline(problem.card, "flash"));
        item.append(link);
      }
      list.append(item);
    }
    document.getElementById("checks").textContent = state.checks ? "checked: " + state.checks : "";
    document.getElementById("problems-link").textContent =
      state.problems === null ? "problems" : "problems (" + (errors + warnings) + ")";
    document.getElementById("problems-summary").textContent =
      !state.deck ? "" : state.problems === null ? "checking…"
        : errors || warnings ? errors + " error(s), " + warnings + " warning(s)" : "no problems found";
  }

  function renderError() {
    const box = document.getElementById("error");
    box.hidden = !state.error.length;
    document.getElementById("error-text").textContent = state.error.join("\n");
  }

  function zoom(key) {
    const card = state.cards.find((c) => c.key === key);
    if (!card) return;
    const dpi = state.geometry.print_dpi, g = state.geometry;
    const widthPx = Math.round((g.trim_mm[0] + (document.body.classList.contains("show-bleed") ? 2 * g.bleed_mm : 0))
                               / 25.4 * dpi / window.devicePixelRatio);
    const body = document.getElementById("zoom-body");
    body.style.setProperty("--zoom-width", widthPx + "px");
    body.replaceChildren(cardFrame(shownHash(card), dpi, card.name).frame);
    document.getElementById("zoom-title").textContent = card.name + (card.code ? " (" + card.code + ")" : "");
    document.getElementById("zoom-dpi").textContent = dpi + " dpi, one picture pixel per screen pixel";
    document.getElementById("zoom").showModal();
  }
  document.getElementById("zoom-close").addEventListener("click", () => document.getElementById("zoom").close());

  document.getElementById("toggles").addEventListener("change", (event) => {
    const input = event.target;
    if (input.name === "side") { side = input.value; render([]); return; }
    if (input.name === "vision") { document.body.dataset.vision = input.value; return; }
    document.body.classList.toggle("show-" + input.name, input.checked);
  });

  function apply(update) {
    if (update.type === "hello") {
      if (update.version !== state.version) refresh();
      return;
    }
    if (update.version <= state.version) return;
    const changed = update.changed || [];
    delete update.type; delete update.changed;
    state = update;
    if (state.geometry) render(changed); else renderError();
  }

  function refresh() {
    fetch("/state", {cache: "no-store"}).then((r) => r.json()).then((fresh) => { state = fresh; if (state.geometry) render([]); else renderError(); });
  }

  function connect() {
    const live = document.getElementById("live");
    const events = new EventSource("/events");
    events.onopen = () => { live.textContent = "live"; live.classList.add("on"); };
    events.onerror = () => { live.textContent = "reconnecting…"; live.classList.remove("on"); };
    events.onmessage = (message) => apply(JSON.parse(message.data));
  }

  if (state.geometry) render([]); else renderError();
  connect();
})();
