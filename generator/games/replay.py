"""A refereed game as one self-contained HTML page to step through: the table after every
action (hands as far as the log shows them, the trick or play area, scores, counters), each
action with the rule that allowed it, and the first violation with its rule text and the
legal options. No external fetches: the data, the styles and the script are in the page.

`ReplayRecorder` is handed to `referee.referee(log, recorder)`, which calls `before` ahead
of each action and `after` once it is applied; `replay_html` turns the recording and the
report into the page.
"""

from __future__ import annotations

import html
import json
from typing import Any

from ..deck import markup
from ..deck.model import Deck
from .base import CHANCE, Action, Game, GameState

ACTION_TEXT_LIMIT = 160  # a chance action (a whole deal) can be long; the page shows its start


class ReplayRecorder:
    """Collects one step per applied action: who acted, what, where in the log, under which rule,
    and the table afterwards. `attempted` is the action being applied when a violation stopped it."""

    def __init__(self) -> None:
        self.game: Game | None = None  # set by the referee once it has built the log's game
        self.steps: list[dict] = []
        self.start: dict | None = None
        self.attempted: dict | None = None
        self._context: Any = None  # the state's replay_context() before the action
        self._action: Action | None = None

    def before(self, state: GameState, action: Action, field: str, line: int | None) -> None:
        if self.start is None:
            self.start = state.table_view()
        pending = state.pending()
        seat = state.current_player()
        try:
            text = self.game.format_action(state, action)
        except Exception:  # an action the rules refuse may not even format; say what it was
            text = repr(action)
        if len(text) > ACTION_TEXT_LIMIT:
            text = text[:ACTION_TEXT_LIMIT - 1] + "…"
        self.attempted = {"actor": "chance" if seat == CHANCE else state.player_name(seat) if seat >= 0 else "",
                          "action": text, "field": field, "line": line,
                          "owes": pending.owes if pending else "", "rule": pending.rule if pending else ""}
        self._context, self._action = state.replay_context(), action

    def after(self, state: GameState) -> None:
        step = dict(self.attempted or {})
        view = state.table_view()
        settled = state.replay_events(self._context, self._action)
        if settled:  # e.g. the trick just taken, which the table no longer shows
            step["note"] = settled.get("note", "")
            view["areas"] = settled.get("areas", []) + view.get("areas", [])
        step["view"] = view
        self.steps.append(step)
        self.attempted = None


def replay_html(deck: Deck, report, recorder: ReplayRecorder, title: str) -> str:
    """The page for a refereed log (`report` from `referee.referee`)."""
    data = {
        "title": title, "deck": deck.name, "log": report.log, "players": report.players,
        "status": report.status, "start": recorder.start or {"hands": [], "areas": [], "counters": {}, "scores": []},
        "steps": recorder.steps, "rules": _rules(deck, recorder, report),
        "violation": _violation(report, recorder), "pending": report.pending,
        "standings": report.standings if report.finished else None, "draw": report.draw,
    }
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    head, _, tail = _PAGE.partition("{{data}}")
    return head.replace("{{title}}", html.escape(title)) + payload + tail


def _rules(deck: Deck, recorder: ReplayRecorder, report) -> dict[str, dict]:
    """Number, title and plain text of every rule the page cites."""
    wanted = {step.get("rule") for step in recorder.steps}
    if report.violation:
        wanted.add(report.violation.rule)
    if report.pending and report.pending.get("rule"):
        wanted.add(report.pending["rule"]["id"])
    rules = {}
    for rule_id in sorted(filter(None, wanted)):
        try:
            rule = deck.rule(rule_id)
            rules[rule_id] = {"number": rule.number, "title": rule.title, "text": markup.to_plain(rule.text, deck)}
        except KeyError:
            card = deck.find_card(rule_id[5:]) if rule_id.startswith("card:") else None
            if card is not None:
                rules[rule_id] = {"number": "", "title": card.name, "text": markup.to_plain(card.text, deck)}
    return rules


def _violation(report, recorder: ReplayRecorder) -> dict[str, Any] | None:
    violation = report.violation
    if violation is None:
        return None
    attempted = recorder.attempted or {}
    return {"message": violation.message, "rule": violation.rule, "number": violation.rule_number,
            "title": violation.rule_title, "text": violation.rule_text, "ruling": violation.ruling,
            "ruling_decision": violation.ruling_decision, "legal": violation.legal, "where": violation.where,
            "field": violation.field, "line": violation.line, "actor": attempted.get("actor", ""),
            "action": attempted.get("action", "")}


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}}</title>
<style>
:root { --ink: #1d232a; --muted: #5b6673; --line: #d5dbe1; --paper: #fbfbf8; --accent: #1f5fa8;
        --bad: #b3261e; --bad-bg: #fdecea; --ok: #1e7a3c; --chip: #eef2f6; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink);
       background: var(--paper); }
header { padding: 12px 18px; border-bottom: 1px solid var(--line); background: #fff; }
h1 { font-size: 1.15rem; margin: 0 0 2px; }
.sub { color: var(--muted); font-size: .9rem; }
.status { font-weight: 600; }
.status.violation { color: var(--bad); } .status.legal { color: var(--ok); } .status.incomplete { color: #8a5a00; }
.controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 10px 18px;
            border-bottom: 1px solid var(--line); background: #fff; position: sticky; top: 0; z-index: 2; }
button { font: inherit; padding: 6px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fff;
         cursor: pointer; }
button:hover { border-color: var(--accent); }
button:disabled { opacity: .45; cursor: default; }
button.bad { border-color: var(--bad); color: var(--bad); }
#counter { margin: 0 8px; font-variant-numeric: tabular-nums; }
.keys { color: var(--muted); font-size: .82rem; margin-left: auto; }
main { display: grid; grid-template-columns: minmax(220px, 320px) 1fr; gap: 0; min-height: 70vh; }
#steps { border-right: 1px solid var(--line); max-height: calc(100vh - 120px); overflow-y: auto; margin: 0;
         padding: 0; list-style: none; background: #fff; }
#steps li { padding: 5px 12px; border-bottom: 1px solid #eef0f2; cursor: pointer; font-size: .86rem; }
#steps li.current { background: #e4eefa; font-weight: 600; }
#steps li.violation { color: var(--bad); }
#steps .n { color: var(--muted); display: inline-block; min-width: 3.2em; font-variant-numeric: tabular-nums; }
#detail { padding: 14px 18px; min-width: 0; }
section { margin-bottom: 16px; }
h2 { font-size: .95rem; margin: 0 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.action { font-size: 1.05rem; }
.rule { margin-top: 4px; font-size: .9rem; color: var(--muted); }
.note { margin-top: 2px; font-weight: 600; color: var(--ok); }
.note:empty { display: none; }
.rule b { color: var(--ink); }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .82rem; color: var(--muted); font-weight: 600; }
td.score { font-variant-numeric: tabular-nums; font-weight: 600; white-space: nowrap; }
.chip { display: inline-block; padding: 1px 7px; margin: 2px 3px 2px 0; border-radius: 5px; background: var(--chip);
        border: 1px solid #d9e0e7; font: 600 .85rem ui-monospace, SFMono-Regular, Menlo, monospace; }
.none { color: var(--muted); font-style: italic; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 0; }
dt { color: var(--muted); } dd { margin: 0; }
#violation { border: 2px solid var(--bad); background: var(--bad-bg); border-radius: 8px; padding: 10px 14px; }
#violation h2 { color: var(--bad); }
#violation .text { white-space: pre-wrap; margin: 6px 0; }
#result { border: 2px solid var(--ok); background: #eaf6ee; border-radius: 8px; padding: 10px 14px; }
#result ol { margin: 0; padding-left: 1.4em; }
#pending { border: 2px solid #c98a00; background: #fff6df; border-radius: 8px; padding: 10px 14px; }
[hidden] { display: none !important; }
@media (max-width: 720px) {
  main { grid-template-columns: 1fr; }
  #steps { max-height: 30vh; border-right: 0; border-bottom: 1px solid var(--line); }
  .keys { display: none; }
  td, th { padding: 5px 4px; }
}
</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <div class="sub"><span id="status" class="status"></span> · <span id="players"></span></div>
</header>
<div class="controls" role="toolbar" aria-label="Step through the game">
  <button id="first" title="First (Home)">« First</button>
  <button id="back" title="Back (←)">◀ Back</button>
  <span id="counter" aria-live="polite"></span>
  <button id="forward" title="Forward (→)">Forward ▶</button>
  <button id="last" title="Last (End)">Last »</button>
  <button id="to-violation" class="bad" title="Go to the violation (v)" hidden>Go to the violation</button>
  <span class="keys">← → step · Home / End · v violation</span>
</div>
<main>
  <ol id="steps" aria-label="Actions"></ol>
  <div id="detail">
    <section id="violation" hidden>
      <h2>Violation</h2>
      <div id="v-message" class="action"></div>
      <div id="v-where" class="rule"></div>
      <div class="rule"><b id="v-rule"></b></div>
      <div id="v-text" class="text"></div>
      <div id="v-ruling" class="rule"></div>
      <div><b>Legal here:</b> <span id="v-legal"></span></div>
    </section>
    <section id="pending" hidden>
      <h2>The log stops here: incomplete</h2>
      <div id="p-owes" class="action"></div>
      <div class="rule"><b id="p-rule"></b></div>
      <div><b>Legal here:</b> <span id="p-legal"></span></div>
    </section>
    <section id="result" hidden>
      <h2 id="r-title">Final standings</h2>
      <ol id="r-list"></ol>
    </section>
    <section>
      <h2>Action</h2>
      <div id="action" class="action"></div>
      <div id="action-note" class="note"></div>
      <div id="action-rule" class="rule"></div>
    </section>
    <section>
      <h2>Players</h2>
      <table><thead><tr><th>Player</th><th>Score</th><th>Hand</th></tr></thead><tbody id="hands"></tbody></table>
    </section>
    <section id="areas-section">
      <h2>On the table</h2>
      <table><tbody id="areas"></tbody></table>
    </section>
    <section>
      <h2>Counters</h2>
      <dl id="counters"></dl>
    </section>
  </div>
</main>
<script type="application/json" id="replay-data">{{data}}</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var views = [data.start].concat(data.steps.map(function (s) { return s.view; }));
  var last = data.steps.length + (data.violation ? 1 : 0);
  var current = 0;
  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function chips(parent, cards) {
    parent.textContent = "";
    if (typeof cards === "number") { parent.appendChild(el("span", cards + " cards", "none")); return; }
    if (!cards || !cards.length) { parent.appendChild(el("span", "none", "none")); return; }
    cards.forEach(function (card) { parent.appendChild(el("span", card, "chip")); });
  }
  function ruleLine(id) {
    if (!id) return "";
    var rule = data.rules[id];
    if (!rule) return "Rule [" + id + "]";
    return "Rule " + (rule.number ? rule.number + " " : "") + rule.title + " [" + id + "]";
  }
  $("title").textContent = data.title;
  $("players").textContent = data.deck + " · " + data.players.join(", ");
  var status = $("status");
  status.textContent = data.status === "legal" ? "legal, game finished" + (data.draw ? " (a draw)" : "")
    : data.status === "incomplete" ? "legal so far, incomplete" : "violation";
  status.classList.add(data.status);
  var list = $("steps");
  function addItem(index, label, cls) {
    var item = el("li", null, cls);
    item.appendChild(el("span", index === 0 ? "start" : "#" + index, "n"));
    item.appendChild(document.createTextNode(label));
    item.dataset.step = index;
    item.addEventListener("click", function () { show(index); });
    list.appendChild(item);
  }
  addItem(0, " the table before the first action");
  data.steps.forEach(function (step, i) {
    addItem(i + 1, " " + (step.actor ? step.actor + ": " : "") + step.action + (step.note ? " · " + step.note : ""));
  });
  if (data.violation) {
    addItem(last, " ✗ " + (data.violation.actor ? data.violation.actor + ": " : "")
      + (data.violation.action || data.violation.field || "violation"), "violation");
    $("to-violation").hidden = false;
  }
  function show(index) {
    current = Math.max(0, Math.min(last, index));
    var atViolation = data.violation && current === last;
    var view = atViolation ? views[views.length - 1] : views[current];
    var step = current > 0 && !atViolation ? data.steps[current - 1] : null;
    $("counter").textContent = "Step " + current + " of " + last;
    $("first").disabled = $("back").disabled = current === 0;
    $("forward").disabled = $("last").disabled = current === last;
    Array.prototype.forEach.call(list.children, function (item) {
      var on = Number(item.dataset.step) === current;
      item.classList.toggle("current", on);
      if (on && item.scrollIntoView) item.scrollIntoView({block: "nearest"});
    });
    $("action-note").textContent = step && step.note ? step.note : "";
    if (atViolation) {
      var v = data.violation;
      $("action").textContent = (v.actor ? v.actor + ": " : "") + (v.action || "(a claim in the log)") + " — refused";
      $("action-rule").textContent = (v.field ? "log field " + v.field : "") + (v.line ? ", line " + v.line : "");
    } else if (step) {
      $("action").textContent = (step.actor ? step.actor + ": " : "") + step.action;
      $("action-rule").textContent = (step.rule ? "allowed by " + ruleLine(step.rule) : "")
        + (step.field ? " · log field " + step.field : "") + (step.line ? ", line " + step.line : "");
    } else {
      $("action").textContent = "The start of the game, before the first action.";
      $("action-rule").textContent = "";
    }
    var vbox = $("violation");
    vbox.hidden = !atViolation;
    if (atViolation) {
      var v2 = data.violation;
      $("v-message").textContent = v2.message;
      var where = Object.keys(v2.where || {}).map(function (k) { return k + " " + v2.where[k]; }).join(", ");
      $("v-where").textContent = where;
      $("v-rule").textContent = v2.title ? "Rule " + (v2.number ? v2.number + " " : "") + v2.title + " [" + v2.rule + "]"
        : "Rule [" + v2.rule + "]";
      $("v-text").textContent = v2.text || "";
      $("v-ruling").textContent = v2.ruling ? "Ruling [" + v2.ruling + "]: " + v2.ruling_decision : "";
      chips($("v-legal"), v2.legal);
    }
    var pbox = $("pending");
    pbox.hidden = !(data.pending && current === last && !data.violation);
    if (!pbox.hidden) {
      $("p-owes").textContent = "Still owed: " + data.pending.owes;
      $("p-rule").textContent = data.pending.rule ? ruleLine(data.pending.rule.id) : "";
      chips($("p-legal"), data.pending.legal.slice(0, 40));
    }
    var rbox = $("result");
    rbox.hidden = !(data.standings && current === last && !data.violation);
    if (!rbox.hidden) {
      $("r-title").textContent = data.draw ? "Final standings: a draw, nobody wins" : "Final standings";
      var rlist = $("r-list");
      rlist.textContent = "";
      data.standings.forEach(function (row) {
        rlist.appendChild(el("li", row.player + ": " + row.score + (row.winner ? " (winner)" : "")));
      });
    }
    var body = $("hands");
    body.textContent = "";
    data.players.forEach(function (name, seat) {
      var row = el("tr");
      row.appendChild(el("td", name));
      row.appendChild(el("td", view.scores && view.scores[seat] !== undefined ? view.scores[seat] : "-", "score"));
      var cell = el("td");
      chips(cell, view.hands && view.hands[seat] !== undefined ? view.hands[seat] : []);
      row.appendChild(cell);
      body.appendChild(row);
    });
    var areas = $("areas");
    areas.textContent = "";
    (view.areas || []).forEach(function (area) {
      var row = el("tr");
      row.appendChild(el("th", area.title));
      var cell = el("td");
      chips(cell, area.cards);
      row.appendChild(cell);
      areas.appendChild(row);
    });
    $("areas-section").hidden = !(view.areas || []).length;
    var counters = $("counters");
    counters.textContent = "";
    Object.keys(view.counters || {}).forEach(function (key) {
      counters.appendChild(el("dt", key));
      counters.appendChild(el("dd", view.counters[key]));
    });
  }
  $("first").addEventListener("click", function () { show(0); });
  $("back").addEventListener("click", function () { show(current - 1); });
  $("forward").addEventListener("click", function () { show(current + 1); });
  $("last").addEventListener("click", function () { show(last); });
  $("to-violation").addEventListener("click", function () { show(last); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") show(current + 1);
    else if (event.key === "ArrowLeft") show(current - 1);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(last);
    else if ((event.key === "v" || event.key === "V") && data.violation) show(last);
    else return;
    event.preventDefault();
  });
  show(0);
})();
</script>
</body>
</html>
"""
