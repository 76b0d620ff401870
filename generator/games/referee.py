"""Replay a game log under a deck's rules and rule on it: legal, or the first violation
(where, which rule with its text, what would have been legal).

Works for every engine through the `Game` hooks (see `generator.games.base`). Malformed
logs raise `MalformedLog` (exit 2); a broken rule is a result, not an exception (exit 1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import DeckgenError
from ..deck import markup
from ..deck.model import Deck
from .base import Game, GameState, IllegalAction, engine_class, game_for
from .logs import GameLog, field_path, read_log

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

    from .replay import ReplayRecorder


@dataclass
class Violation:
    """The first rule a log breaks: where, which rule (with its text), what was legal."""

    message: str
    rule: str
    rule_number: str
    rule_title: str
    rule_text: str
    ruling: str
    ruling_decision: str
    legal: list[str]
    where: dict[str, Any]  # round, trick, player (a name) as far as known
    field: str
    line: int | None

    def as_dict(self) -> dict:
        return {
            "message": self.message,
            "rule": {"id": self.rule, "number": self.rule_number, "title": self.rule_title, "text": self.rule_text},
            "ruling": {"id": self.ruling, "decision": self.ruling_decision} if self.ruling else None,
            "legal": self.legal,
            "where": self.where,
            "field": self.field,
            "line": self.line,
        }


@dataclass
class RefereeReport:
    """What the referee found in one log: the rounds, scores and standings, or the violation."""

    log: str
    deck: str
    players: list[str]
    variants: list[str]
    finished: bool
    actions: int
    rounds: list[dict]
    scores: list[int]
    standings: list[dict]  # place, player, score, winner
    violation: Violation | None = None
    lower_score_wins: bool = False
    summary: dict = field(default_factory=dict)
    # When a legal log stops before the game ends: who owes which decision, under which rule.
    pending: dict | None = None
    draw: bool = False  # finished level, and the rules call that a draw
    undone: list[dict] = field(default_factory=list)  # moves taken back at the table ([[undo]])

    @property
    def legal(self) -> bool:
        return self.violation is None

    @property
    def status(self) -> str:
        return "violation" if self.violation else "legal" if self.finished else "incomplete"

    @property
    def exit_code(self) -> int:
        return 0 if self.legal else 1

    def as_dict(self) -> dict:
        return {
            "log": self.log,
            "deck": self.deck,
            "status": self.status,
            "players": self.players,
            "variants": self.variants,
            "finished": self.finished,
            "actions": self.actions,
            "rounds": self.rounds,
            "scores": self.scores,
            "standings": self.standings,
            "result": ("draw" if self.draw else "won") if self.finished else None,
            "violation": self.violation.as_dict() if self.violation else None,
            "pending": self.pending,
            "undone": self.undone,
        }

    def text(self) -> str:
        lines = []
        for round_info in self.rounds:
            lines.append(round_info.get("title", ""))
            lines.extend(_table(self.players, round_info.get("columns", {})))
            lines.append("")
        for entry in self.undone:
            lines.append(f"Taken back at the table after action {entry['after']}: {', '.join(entry['moves'])}")
        if self.undone:
            lines.append("")
        if self.violation:
            lines.extend(_violation_text(self, self.violation))
            return "\n".join(lines)
        if self.finished:
            lines.append(f"{self.log}: legal, game finished ({self.actions} actions)")
        else:
            lines.append(f"{self.log}: INCOMPLETE: legal so far ({self.actions} actions), but the log stops "
                         "before the game ends")
            lines.extend(_pending_text(self.pending))
        lines.append(("Final standings: a draw, nobody wins" if self.draw else "Final standings") if self.finished
                     else "Standings so far")
        name_width = max(len(row["player"]) for row in self.standings)
        score_width = max(len(str(row["score"])) for row in self.standings)
        for row in self.standings:
            mark = "  winner" if row["winner"] else ""
            lines.append(f"  {row['place']}. {row['player']:<{name_width}}  {row['score']:>{score_width}}{mark}")
        return "\n".join(lines)


def referee_file(deck: Deck, path: Path, recorder: "ReplayRecorder | None" = None) -> RefereeReport:
    log = read_log(path, deck, engine_class(deck).log_sections)
    return referee(log, recorder)


def referee(log: GameLog, recorder: "ReplayRecorder | None" = None) -> RefereeReport:
    """Replay `log` step by step; stop at the first violation. A `recorder`
    (`generator.games.replay.ReplayRecorder`) sees every action and the table after it."""
    game = make_game(log)
    num_players = len(log.players)
    if not game.min_players <= num_players <= game.max_players:
        raise log.error("players", f"{game.id} is for {game.min_players}-{game.max_players} players, "
                                   f"the log names {num_players}")
    state = game.new_state(num_players)
    state.player_names = log.players
    if recorder is not None:
        recorder.game = game
    rng = random.Random(log.seed) if log.seed is not None else None
    actions = 0
    field_name = ""
    violation = None
    try:
        for step in game.log_steps(log, state):
            field_name = step.field
            action = step.action
            if action is None:
                if rng is None:
                    raise log.error(step.field, "this chance event (a deal, a shuffle...) is not written "
                                                "and the log has no seed to draw it from",
                                    hint="write it out, or add `seed = N` at the top of the log")
                action = state.sample_chance(rng)
            if recorder is not None:
                recorder.before(state, action, step.field, log.line(step.field) if step.field else None)
            state.apply(action)
            actions += 1
            if recorder is not None:
                recorder.after(state)
    except IllegalAction as error:
        violation = _violation(log, game, state, error, error.where.get("field", field_name))
    return _report(log, game, state, actions, violation)


def make_game(log: GameLog) -> Game:
    """The deck's engine with the log's variants and parameters; a wrong parameter is blamed on
    the deck's own [engine] table or on the log's [params], whichever holds it."""
    game = game_for(log.deck)  # a fault of the deck's own [engine] table is the deck's, named as such
    if not log.params:  # the log and its variants change no parameter: that is the game
        return game
    try:
        return game_for(log.deck, log.params)
    except DeckgenError as error:
        message = str(error).removeprefix(f"{log.deck.source}: ").removeprefix("parameter ")
        message = message.removeprefix("[engine] ")
        own = log.data.get("params", {})
        key = next((key for key in own if message.startswith(f"{key} ")), None)
        field = field_path("params", key) if key else "params" if own else "variant"
        raise log.error(field, message) from None


def rule_citation(deck: Deck, rule_id: str, ruling_id: str = "") -> dict:
    """A rule (or the card whose text decides, for `card:<id>`) and a ruling as the deck words
    them: {"id", "number", "title", "text", "ruling", "decision"}, blank where the deck has none."""
    number = title = text = decision = ""
    try:
        rule = deck.rule(rule_id)
        number, title, text = rule.number, rule.title, markup.to_plain(rule.text, deck)
    except KeyError:
        if rule_id.startswith("card:"):
            card = deck.find_card(rule_id[5:])
            if card is not None:
                title, text = card.name, markup.to_plain(card.text, deck)
    if ruling_id:
        try:
            decision = markup.to_plain(deck.ruling(ruling_id).decision, deck)
        except KeyError:
            pass
    return {"id": rule_id, "number": number, "title": title, "text": text, "ruling": ruling_id, "decision": decision}


def _violation(log: GameLog, game: Game, state: GameState, error: IllegalAction, field_name: str) -> Violation:
    cited = rule_citation(log.deck, error.rule, error.ruling)
    number, title, text, decision = cited["number"], cited["title"], cited["text"], cited["decision"]
    legal = list(error.legal)
    # A claim the log makes (a dealer, a trump) is not the pending decision: only a refused
    # action is answered with that decision's options.
    if not legal and "field" not in error.where and state.current_player() >= 0:
        legal = [game.format_action(state, action) for action in state.legal_actions()]
    where = {key: value for key, value in error.where.items() if key != "field"}
    if isinstance(where.get("player"), int):
        where["player"] = log.players[where["player"]]
    return Violation(error.message, error.rule, number, title, text, error.ruling, decision, legal,
                     where, field_name, log.line(field_name) if field_name else None)


def _pending(log: GameLog, game: Game, state: GameState) -> dict | None:
    pending = state.pending()
    if pending is None:
        return None
    rule = {"id": pending.rule, "number": "", "title": ""} if pending.rule else None
    if pending.rule:
        try:
            found = log.deck.rule(pending.rule)
            rule.update(number=found.number, title=found.title)
        except KeyError:
            card = log.deck.find_card(pending.rule[5:]) if pending.rule.startswith("card:") else None
            if card is not None:  # the card's own text asks for the decision
                rule.update(title=card.name)
    legal = [game.format_action(state, action) for action in state.legal_actions()] if pending.seat >= 0 else []
    return {"player": log.players[pending.seat] if pending.seat >= 0 else None, "owes": pending.owes,
            "rule": rule, "legal": legal}


def _pending_text(pending: dict | None) -> list[str]:
    if pending is None:
        return []
    lines = [f"  Still owed: {pending['owes']}"]  # the words name who owes it
    rule = pending["rule"]
    if rule:
        number = f"{rule['number']} " if rule["number"] else ""
        lines.append(f"  Rule {number}{rule['title']} [{rule['id']}]" if rule["title"] else f"  Rule: {rule['id']}")
    if pending["legal"]:
        shown = pending["legal"][:30]
        more = f" ... ({len(pending['legal']) - 30} more)" if len(pending["legal"]) > 30 else ""
        lines.append("  Legal here: " + ", ".join(shown) + more)
    return lines


def _report(log: GameLog, game: Game, state: GameState, actions: int, violation: Violation | None) -> RefereeReport:
    summary = state.summary()
    outcome = state.outcome()
    scores = list(outcome.scores if outcome else summary.get("scores", [0] * len(log.players)))
    winners = set(outcome.winners) if outcome and not outcome.draw else set()
    order = sorted(range(len(scores)), key=lambda seat: scores[seat], reverse=not game.lower_score_wins)
    standings, place = [], 0
    for position, seat in enumerate(order):
        if position == 0 or scores[seat] != scores[order[position - 1]]:
            place = position + 1
        standings.append({"place": place, "player": log.players[seat], "score": scores[seat],
                          "winner": seat in winners})
    return RefereeReport(
        log=str(log.path) if log.path else "<log>", deck=log.deck.id, players=list(log.players),
        variants=list(log.variants), finished=outcome is not None, actions=actions,
        rounds=list(summary.get("rounds", [])), scores=scores, standings=standings,
        violation=violation, lower_score_wins=game.lower_score_wins, summary=summary,
        pending=None if violation or outcome else _pending(log, game, state), draw=bool(outcome and outcome.draw),
        undone=list(log.undone),
    )


def _table(players: list[str], columns: dict[str, list]) -> list[str]:
    if not columns:
        return []
    name_width = max(len(name) for name in players + ["player"])
    widths = {key: max(len(key), *(len(_cell(v)) for v in values)) for key, values in columns.items()}
    header = "  " + "player".ljust(name_width) + "".join(f"  {key:>{widths[key]}}" for key in columns)
    rows = [header]
    for seat, name in enumerate(players):
        rows.append("  " + name.ljust(name_width) + "".join(
            f"  {_cell(values[seat]):>{widths[key]}}" for key, values in columns.items()))
    return rows


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def _violation_text(report: RefereeReport, violation: Violation) -> list[str]:
    place = ", ".join(f"{key} {value}" for key, value in violation.where.items())
    location = report.log + (f":{violation.line}" if violation.line else "")
    lines = [f"{location}: VIOLATION" + (f" in {place}" if place else "")
             + (f" ({violation.field})" if violation.field else ""),
             f"  {violation.message}"]
    if violation.rule_title:
        number = f"{violation.rule_number} " if violation.rule_number else ""
        lines.append(f"  Rule {number}{violation.rule_title} [{violation.rule}]:")
        lines.extend("    " + text_line for text_line in violation.rule_text.splitlines() if text_line.strip())
    else:
        lines.append(f"  Rule: {violation.rule}")
    if violation.ruling:
        lines.append(f"  Ruling [{violation.ruling}]: {violation.ruling_decision}")
    if violation.legal:
        lines.append("  Legal here: " + ", ".join(violation.legal))
    return lines


def answer_text(deck: Deck, answer: dict) -> str:
    """A quick ruling (`Game.quick_ruling`) for the terminal, with the text of each rule it cites."""
    lines = [answer["answer"]]
    for reason in answer.get("reasons", ()):
        lines.append(f"  - {reason}")
    for rule_id in answer.get("rules", ()):
        card = deck.find_card(rule_id[5:]) if rule_id.startswith("card:") else None
        if card is not None:  # the card's own text decides
            lines.append(f"Card {card.name} [{rule_id}]:")
            lines.extend("  " + line for line in markup.to_plain(card.text, deck).splitlines() if line.strip())
            continue
        rule = deck.rule(rule_id)
        lines.append(f"Rule {rule.number} {rule.title} [{rule.id}]:")
        lines.extend("  " + line for line in markup.to_plain(rule.text, deck).splitlines() if line.strip())
    for ruling_id in answer.get("rulings", ()):
        lines.append(f"Ruling [{ruling_id}]: {markup.to_plain(deck.ruling(ruling_id).decision, deck)}")
    return "\n".join(lines)
