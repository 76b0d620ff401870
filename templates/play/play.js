"use strict";
// The table as one link sees it: draws the state the server gives this link, sends moves, and
// asks for the state again whenever the server announces a change. The rules live in the
// engine on the server: this page only offers the moves it was told are legal, and shows the
// referee's refusal when a card it was not offered is tried.
(function () {
  let state = JSON.parse(document.getElementById("initial-state").textContent);
  let fetching = false, again = false, earlierOpen = false;
  let choosing = null;  // {code, step}: the card whose moves are offered, kept open while the step lasts
  window.deckgenTable = {get state() { return state; }, renders: 0};

  const $ = (id) => document.getElementById(id);
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  const seatName = (seat) => seat === null || seat === undefined ? "" : (state.seats[seat] || {}).name || "seat " + (seat + 1);

  // -- pictures ------------------------------------------------------------------------------------
  // A card's picture, its code written over it only while the picture is missing.
  function fillCard(box, code) {
    const index = state.deck.faces[code];
    box.classList.add("card", "noimg");
    if (index !== undefined) {
      const img = el("img");
      img.alt = code; img.decoding = "async";
      img.addEventListener("load", () => box.classList.remove("noimg"));
      img.src = state.deck.pictures + index + ".png";
      box.append(img);
    }
    box.append(el("span", "code", code));
    box.dataset.code = code;
    return box;
  }
  const cardFace = (code) => fillCard(el("div"), code);

  // A card larger, to read its text: a click on the table, a right-click (long press) in the hand.
  function zoom(code) {
    $("zoom-body").replaceChildren(cardFace(code));
    $("zoom").showModal();
  }
  $("zoom-close").addEventListener("click", () => $("zoom").close());
  $("areas").addEventListener("click", (event) => {
    const card = event.target.closest("[data-code]");
    if (card) zoom(card.dataset.code);
  });
  function cardBack(count) {
    const box = el("div", "card back-count");
    const img = el("img"); img.alt = "card back"; img.src = state.deck.pictures + "back.png";
    box.append(img);
    if (count !== undefined) box.append(el("span", "", "×" + count));
    return box;
  }

  // -- the table -----------------------------------------------------------------------------------
  function renderSeats(game) {
    const box = $("seats"); box.replaceChildren();
    const view = game ? game.view : null;
    state.seats.forEach((seat, index) => {
      const plate = el("div", "seat");
      plate.dataset.seat = index;
      if (game && game.to_act === index) plate.classList.add("to-act");
      if (state.you.seat === index) plate.classList.add("you");
      plate.append(el("div", "name", seat.name + (state.you.seat === index ? " (you)" : "")));
      plate.append(el("div", "kind", seat.kind === "person" ? "person" : seat.kind + " bot"));
      if (view) {
        const figures = Object.entries(view.columns).map(([name, values]) =>
          name + " " + (values[index] === null || values[index] === undefined ? "–" : values[index]));
        if (view.scores.length) figures.push("Score " + view.scores[index]);
        plate.append(el("div", "figures", figures.join(" · ")));
        if (view.hand_sizes.length) {
          const held = el("div", "held");
          const img = el("img"); img.alt = ""; img.src = state.deck.pictures + "back.png";
          held.append(img, el("span", "", view.hand_sizes[index] + " in hand"));
          plate.append(held);
        }
      }
      box.append(plate);
    });
  }

  function renderTable(game) {
    const counters = $("counters"); counters.replaceChildren();
    const areas = $("areas"); areas.replaceChildren();
    if (!game) return;
    for (const [name, value] of Object.entries(game.view.counters)) counters.append(el("span", "chip", name + ": " + value));
    for (const area of game.view.areas) {
      const box = el("div", "area " + area.kind);
      box.append(el("h3", "", area.title));
      const cards = el("div", "cards");
      for (const card of area.cards) {
        if (area.kind === "trick") {
          const played = el("div", "played");
          played.append(cardFace(card.code), el("span", "", seatName(card.seat)));
          cards.append(played);
        } else cards.append(cardFace(card.code));
      }
      if (area.hidden) cards.append(cardBack(area.hidden));
      box.append(cards);
      areas.append(box);
    }
    const trick = game.last_trick;
    if (trick) {
      const box = el("div", "area last-trick");
      box.append(el("h3", "", "Last trick"));
      const cards = el("div", "cards");
      for (const card of trick.cards) {
        const played = el("div", "played");
        played.append(cardFace(card.code), el("span", "", seatName(card.seat)));
        cards.append(played);
      }
      box.append(cards, el("div", "winner-note", seatName(trick.winner) + " took it"));
      areas.append(box);
    }
    const over = $("over");
    over.hidden = !game.over;
    over.replaceChildren();
    if (game.over && game.outcome) {
      const outcome = game.outcome;
      over.append(el("h2", "", outcome.draw ? "A draw" : "Game over: " + outcome.winners.join(" and ") + " won"));
      const order = state.seats.map((seat, index) => index)
        .sort((a, b) => outcome.scores[b] - outcome.scores[a]);
      const list = el("ol");
      for (const seat of order) list.append(el("li", "", seatName(seat) + ": " + outcome.scores[seat]));
      over.append(list);
      if (outcome.reason !== "finished") over.append(el("p", "muted", outcome.reason));
    }
  }

  // -- your hand and your moves ---------------------------------------------------------------------
  function renderHand(game) {
    const hand = $("hand"); hand.replaceChildren();
    const moves = game ? game.moves : [];
    $("hand-title").textContent = state.you.seat === null ? "Onlooker: no hand" : "Your hand (" + seatName(state.you.seat) + ")";
    hand.classList.toggle("waiting", !(game && game.your_turn));
    for (const code of game ? game.view.hand : []) {
      const button = fillCard(el("button"), code);
      button.type = "button";
      const uses = moves.filter((move) => move.cards.includes(code));
      if (uses.length) button.classList.add("playable");
      button.title = uses.length ? uses.map((move) => move.text).join(" / ") : code;
      button.addEventListener("click", () => clickCard(code));
      button.addEventListener("contextmenu", (event) => { event.preventDefault(); zoom(code); });
      hand.append(button);
    }
    const plain = $("moves"); plain.replaceChildren();
    const every = $("all-moves"); every.replaceChildren();
    if (game && game.your_turn) {
      const held = new Set(game.view.hand);  // moves that use no card of the hand get a button of their own
      const loose = moves.filter((move) => !move.cards.some((code) => held.has(code)));
      if (loose.length) plain.append(el("span", "label", "Your move:"));
      for (const move of loose) plain.append(moveButton(move));
      for (const move of moves) every.append(moveButton(move));
    }
    // An update that is not a new step (someone joins, a bot thinks) keeps an open choice open.
    if (choosing && game && game.your_turn && game.step === choosing.step && game.view.hand.includes(choosing.code)) {
      showChoice(choosing.code, moves.filter((move) => move.cards.includes(choosing.code)));
    } else {
      choosing = null;
      $("choice").hidden = true;
    }
  }

  function moveButton(move) {
    const button = el("button", "", move.text);
    button.type = "button";
    button.dataset.moveText = move.text;
    button.addEventListener("click", () => send("act", {move: move.id, step: state.game.step}));
    return button;
  }

  function clickCard(code) {
    const game = state.game;
    if (!game || !game.your_turn) return showError("It is not your turn: the game waits for " + (game ? game.owes : "the deal") + ".");
    const uses = game.moves.filter((move) => move.cards.includes(code));
    if (uses.length === 1 && uses[0].cards.length === 1) return send("act", {move: uses[0].id, step: game.step});
    if (!uses.length && !game.moves.some((move) => move.cards.length)) {
      return showError("This is not the moment for a card: " + game.owes + ". Choose below.");
    }
    if (!uses.length) return send("act", {text: code});  // not offered: the referee says why
    choosing = {code: code, step: game.step};
    showChoice(code, uses);
  }

  function showChoice(code, uses) {
    const choice = $("choice"); choice.replaceChildren(el("span", "label", "With " + code + ": "));
    for (const move of uses) choice.append(moveButton(move));
    choice.hidden = false;
  }

  // -- the side: moves seen, score sheet, owner's panel -------------------------------------------------
  function renderEvents(game) {
    const list = $("events"); list.replaceChildren();
    for (const event of game ? game.events.slice().reverse() : []) {
      const item = el("li");
      if (event.seat !== null && event.seat !== undefined) item.append(el("b", "", seatName(event.seat) + " "));
      item.append(document.createTextNode(event.text));
      list.append(item);
    }
  }

  // The latest round in full; the earlier ones folded away, newest first.
  function renderSheet(game) {
    const box = $("sheet"); box.replaceChildren();
    const rounds = game ? game.view.rounds.slice().reverse() : [];
    rounds.forEach((round, index) => {
      if (index === 1) {
        const earlier = el("details"); earlier.id = "earlier-rounds"; earlier.open = earlierOpen;
        earlier.addEventListener("toggle", () => { earlierOpen = earlier.open; });
        earlier.append(el("summary", "small", "earlier rounds (" + (rounds.length - 1) + ")"));
        box.append(earlier);
      }
      (index ? box.lastChild : box).append(sheetTable(round));
    });
    if (!rounds.length) box.append(el("p", "muted small", "Nothing scored yet."));
  }

  function sheetTable(round) {
    const table = el("table", "sheet");
    table.append(el("caption", "", round.title));
    const head = el("tr"); head.append(el("th", "", "player"));
    const columns = Object.entries(round.columns || {});
    for (const [name] of columns) head.append(el("th", "", name));
    table.append(head);
    state.seats.forEach((seat, index) => {
      const row = el("tr"); row.append(el("td", "", seat.name));
      for (const [, values] of columns) row.append(el("td", "", values[index] === null ? "–" : String(values[index])));
      table.append(row);
    });
    return table;
  }

  function renderOwner() {
    const box = $("owner"), owner = state.owner;
    box.hidden = !owner; box.replaceChildren();
    renderSetup();
    if (!owner) return;
    box.append(el("h2", "", "Your table"));
    if (owner.reload_error.length) {
      const problem = el("div", "problem");
      problem.append(el("strong", "", "The deck file's last save does not load; the table keeps the version before it."));
      problem.append(el("pre", "small", owner.reload_error.join("\n")));
      box.append(problem);
    }
    if (owner.new_rules) {
      const notice = el("div", "notice");
      notice.id = "new-rules";
      notice.append(el("div", "", "The deck file has changed. This game goes on under the rules it began with; the next one is dealt under the new rules and cards."));
      const deal = el("button", "primary", state.game && state.game.over ? "Deal under the new rules" : "Start the next game now, under the new rules");
      deal.id = "deal-new-rules";
      deal.addEventListener("click", () => send("deal", {}));
      notice.append(deal);
      box.append(notice);
    }
    if (owner.links.length) {
      box.append(el("p", "small", "Give each player their own link (it shows their hand only):"));
      const list = el("ul", "links");
      for (const link of owner.links) {
        const item = el("li"); item.dataset.seat = link.seat;
        const url = location.origin + link.link;
        item.append(el("b", "", link.name + ": "), el("a", "", url));
        item.querySelector("a").href = url;
        list.append(item);
      }
      box.append(list);
    }
    const buttons = el("div", "moves");
    const undo = el("button", "", "Take back the last move");
    undo.id = "undo"; undo.disabled = !owner.can_undo;
    undo.addEventListener("click", () => send("undo", {}));
    const again = el("button", state.game && state.game.over ? "primary" : "", "New game");
    again.id = "new-game"; again.disabled = !state.seats.length;
    again.addEventListener("click", () => send("deal", {}));
    const reseat = el("button", "", "Change seats");
    reseat.addEventListener("click", () => { $("setup").dataset.open = "1"; renderSetup(); });
    buttons.append(undo, again, reseat);
    box.append(buttons);
    if (owner.log) box.append(el("p", "small muted", "This game's log: " + owner.log));
    for (const entry of owner.undone) box.append(el("p", "small muted", "Taken back: " + entry.moves.join(", ")));
  }

  function renderSetup() {
    const box = $("setup"), owner = state.owner;
    const open = owner && (!state.seats.length || box.dataset.open === "1");
    box.hidden = !open;
    if (!open || box.contains(document.activeElement)) return;
    box.replaceChildren(el("h2", "", "Who plays?"));
    const count = el("select"); count.id = "player-count";
    for (let n = owner.players[0]; n <= owner.players[1]; n++) {
      const option = el("option", "", n + " players"); option.value = n; count.append(option);
    }
    const rows = el("div");
    const plan = owner.plan;
    count.value = Math.min(Math.max(plan.length, owner.players[0]), owner.players[1]);
    function drawRows() {
      const previous = [...rows.querySelectorAll(".seat-row")].map((row) => ({
        name: row.querySelector("input").value, kind: row.querySelector("select").value}));
      rows.replaceChildren();
      for (let seat = 0; seat < Number(count.value); seat++) {
        const known = previous[seat] || plan[seat] || {name: "P" + (seat + 1), kind: "heuristic"};
        const row = el("div", "seat-row");
        const name = el("input"); name.value = known.name; name.setAttribute("aria-label", "seat " + (seat + 1) + " name");
        const kind = el("select"); kind.setAttribute("aria-label", "seat " + (seat + 1) + " player");
        for (const option of owner.kinds) {
          const item = el("option", "", option === "person" ? "a person" : option + " bot");
          item.value = option; kind.append(item);
        }
        kind.value = known.kind;
        row.append(el("span", "muted", String(seat + 1)), name, kind);
        rows.append(row);
      }
    }
    count.addEventListener("change", drawRows);
    drawRows();
    const hot = el("label"); const check = el("input"); check.type = "checkbox"; check.id = "hot-seat";
    check.checked = state.hot_seat;
    hot.append(check, document.createTextNode(" hot seat: every person plays on this device, passing it between turns"));
    const deal = el("button", "primary", "Seat them and deal"); deal.id = "deal";
    deal.addEventListener("click", () => {
      const seats = [...rows.querySelectorAll(".seat-row")].map((row) => ({
        name: row.querySelector("input").value, kind: row.querySelector("select").value}));
      box.dataset.open = "";
      send("seat", {seats, hot_seat: check.checked});
    });
    box.append(count, rows, hot, deal);
  }

  function renderCover(game) {
    const cover = $("cover");
    const passTo = game && !game.over ? game.pass_to : null;
    cover.hidden = !passTo;
    cover.replaceChildren();
    if (!passTo) return;
    cover.append(el("h2", "", "Pass the device to " + passTo.name), el("p", "", "Nobody else should see the next screen."));
    const ready = el("button", "primary", "I am " + passTo.name + ": show my hand");
    ready.id = "hand-over";
    ready.addEventListener("click", () => send("hand-over", {seat: passTo.seat}));
    cover.append(ready);
  }

  function renderStatus(game) {
    const status = $("status");
    status.classList.toggle("yours", Boolean(game && game.your_turn));
    if (!game) status.textContent = state.seats.length ? "" : "Waiting for the owner to seat the players";
    else if (game.over) status.textContent = "Game " + game.number + " is over";
    else if (game.your_turn) status.textContent = "Your turn: " + game.owes + (game.rule ? " (" + ruleLabel(game.rule) + ")" : "");
    else status.textContent = "Waiting: " + (game.owes || "…");
  }
  const ruleLabel = (rule) => (rule.number ? rule.number + " " : "") + (rule.title || rule.id);

  function render() {
    const game = state.game;
    document.documentElement.style.setProperty("--ratio", state.deck.card_mm[1] / state.deck.card_mm[0]);
    $("title").textContent = state.deck.name + (game ? " · game " + game.number : "");
    $("failure").hidden = !state.failure; $("failure").textContent = state.failure || "";
    renderStatus(game); renderSeats(game); renderTable(game); renderHand(game);
    renderEvents(game); renderSheet(game); renderOwner(); renderCover(game);
    window.deckgenTable.renders++;
  }

  // -- talking to the server ------------------------------------------------------------------------
  function showRefusal(refusal) {
    const box = $("refusal"); box.replaceChildren(); box.hidden = false;
    box.append(el("div", "message", refusal.message));
    const rule = refusal.rule;
    box.append(el("div", "rule", "Rule " + ruleLabel(rule) + " [" + rule.id + "]"));
    if (rule.text) box.append(el("div", "rule-text", rule.text));
    if (rule.ruling) box.append(el("div", "small", "Ruling [" + rule.ruling + "]: " + rule.decision));
    if (refusal.legal.length) box.append(el("div", "small", "Legal here: " + refusal.legal.join(", ")));
  }
  function showError(text) {
    const box = $("refusal"); box.replaceChildren(el("div", "message", text)); box.hidden = false;
  }

  async function send(path, body) {
    $("refusal").hidden = true;
    let response;
    try {
      response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    } catch (error) { return showError("The table cannot be reached: " + error); }
    const answer = await response.json().catch(() => ({ok: false, error: "the table's answer cannot be read"}));
    if (answer.state && answer.state.version >= state.version) { state = answer.state; render(); }
    if (answer.refusal) showRefusal(answer.refusal);
    else if (!answer.ok) showError(answer.error);
  }

  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const fresh = await (await fetch("state", {cache: "no-store"})).json();
      if (fresh.version >= state.version) { state = fresh; render(); }
    } catch (error) { /* the stream reconnects and asks again */ }
    fetching = false;
    if (again) { again = false; refresh(); }
  }

  function connect() {
    const live = $("live");
    const events = new EventSource("events");
    events.onopen = () => { live.textContent = "live"; live.classList.add("on"); };
    events.onerror = () => { live.textContent = "reconnecting…"; live.classList.remove("on"); };
    events.onmessage = (message) => { if (JSON.parse(message.data).version !== state.version) refresh(); };
  }

  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("typed-move").value.trim();
    if (text) send("act", {text});
  });
  render();
  connect();
})();
