"""The referee reads every figure of play, so a rulebook's example can never contradict the engine.

Each figure is put to the deck's engine as the question a player would ask at the table
(`deckgen rule DECK ...`, the engine's `questions`: generator.games.questions), whatever the
engine: a trick as `trick [trump S | shun S] CARDS`, each card a figure says was played from a
known hand as `play CARD hand ... trick ...`, a goal as `goal A B keeper K house H rival R`, a
manoeuvre as `manoeuvres dominance ...`. What the figure claims (the winner, the points, that a
goal scores, that a manoeuvre is allowed) must be what the engine answers; where it is not, the
problem names the figure, both claims and the rule the engine cites. A figure whose question
the engine does not answer is reported as not checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..core.errors import DeckgenError, Problem
from ..deck import figures
from ..deck.figures import Figure
from ..deck.locate import Locator
from ..deck.model import Deck
from . import questions
from .base import game_for

# The questions each kind of figure is checked with: the first always, "play" for the cards a
# trick figure says were played from a known hand.
FIGURE_QUESTIONS = {"trick": "trick", "goal": "goal", "manoeuvre": "manoeuvres"}


@dataclass(frozen=True, slots=True)
class Placed:
    """A figure and where it is written: the deck texts' field path and the figure's line offset."""

    figure: Figure
    field: str
    offset: int


def placed_figures(deck: Deck, field_of: Callable[[str, str], str]) -> Iterator[Placed]:
    """Every figure in the deck's rule texts. `field_of(what, id)` names the field of a text
    (what is "section", "rule", "variant", "decision" or "reason": `figures.rule_texts`)."""
    for what, item_id, text in figures.rule_texts(deck):
        for found in figures.find(text):
            if found.figure is not None:
                yield Placed(found.figure, field_of(what, item_id), found.line)


def check_deck(deck: Deck) -> list[Problem]:
    """The referee's verdict on every figure in the deck's rule texts, at the deck file's lines."""
    locate = Locator(deck)
    return figure_problems(deck, placed_figures(deck, locate.figure_field), locate.text_line)


def figure_problems(deck: Deck, placed: Iterator[Placed], line_of: Callable[[str, int], int | None],
                    file: Path | None = None) -> list[Problem]:
    """One problem for each figure the engine contradicts (an error) or cannot check (a warning)."""
    referee = _Referee(deck)
    problems = []
    for entry in placed:
        variant = entry.figure.value("variant")
        for severity, message, question in referee.check(entry.figure):
            asked = " ".join(question) + (f" --variant {variant}" if variant else "")
            hint = ("name an engine in [deck] engine = ... so the referee can check it" if not deck.engine
                    else f"`deckgen rule {deck.id}` lists the questions its engine answers" if severity == "warning"
                    else "correct the figure, or the rule it shows if the engine is right"
                         + (f"; ask the referee yourself: deckgen rule {deck.id} {asked}" if question else ""))
            problems.append(Problem(f"{_short(entry.figure)}: {message}", field=entry.field,
                                    line=line_of(entry.field, entry.offset), severity=severity,
                                    file=file or deck.source, hint=hint))
    return problems


def _short(figure: Figure, most: int = 60) -> str:
    text = figure.text
    return f"figure {text if len(text) <= most else text[:most - 1] + '…}'}"


def _ordinal(position: int) -> str:
    return figures.ordinal(position, "en")


def _cites(answer: dict) -> str:
    rules = list(answer.get("rules", ())) + list(answer.get("rulings", ()))
    return f" (rule {', '.join(rules)})" if rules else ""


class _Referee:
    """The deck's engine, built once per variant a figure asks for."""

    def __init__(self, deck: Deck):
        self.deck = deck
        self._games: dict[str, object] = {}

    def game(self, figure: Figure):
        variant = figure.value("variant") or ""
        if variant not in self._games:
            params = self.deck.variant(variant).params if variant else None
            self._games[variant] = game_for(self.deck, params)
        return self._games[variant]

    def check(self, figure: Figure) -> list[tuple[str, str, list[str]]]:
        """(severity, message, the question put to the engine) for what is wrong with one figure;
        nothing when the engine agrees."""
        if figure.kind == "hand":
            return []
        if not self.deck.engine:
            return [("warning", "not checked: the deck names no engine to settle it", [])]
        try:
            game = self.game(figure)
        except (DeckgenError, LookupError, ValueError, TypeError):
            return []  # the engine cannot be built from this deck: composition reports why
        needed = [FIGURE_QUESTIONS[figure.kind]] + (["play"] if figure.every("held") else [])
        missing = [word for word in needed if questions.find(game, word) is None]
        if missing:
            return [("warning", f"not checked: the {game.id} engine answers no `{missing[0]}` question", [])]
        check = {"trick": self._trick, "goal": self._goal, "manoeuvre": self._manoeuvre}[figure.kind]
        self.asked: list[str] = []
        try:
            return [("error", message, question) for message, question in check(game, figure)]
        except (DeckgenError, LookupError, ValueError, TypeError) as error:
            return [("error", f"the {game.id} referee cannot settle it: {error}", self.asked)]

    def ask(self, game, question: list[str]) -> dict:
        self.asked = question
        return game.quick_ruling(question)

    # -- questions -------------------------------------------------------------------------

    def _codes(self, words) -> list[str]:
        return [self.deck.card(word).code for word in words]

    def _settings(self, figure: Figure) -> list[str]:
        words = []
        for name in ("trump", "shun"):
            value = figure.value(name)
            if value is None:
                continue
            suit = figures.find_suit(self.deck, value)
            words += ["no", name] if value.casefold() == "none" else [name, suit.id if suit else value]
        return words

    def _trick(self, game, figure: Figure) -> list[str]:
        cards = self._codes(figure.cards)
        if not game.min_players <= len(cards) <= game.max_players:
            return [(f"a trick of {len(cards)} cards cannot happen: {game.id} is played by "
                     f"{game.min_players} to {game.max_players}, one card each", [])]
        settings = self._settings(figure)
        problems = []
        for values in figure.every("held"):
            position = int(values[0]) - 1
            card = cards[position]
            question = (["play", card, "hand", card, *self._codes(values[1:]), "trick", *cards[:position], *settings]
                        + (["first"] if figure.has("first") else []))
            answer = self.ask(game, question)
            if answer.get("allowed") is False:
                problems.append((f"the {_ordinal(position + 1)} card ({card}) could not be played from a hand "
                                 f"also holding {' '.join(self._codes(values[1:]))}: "
                                 f"{answer['answer']}{_cites(answer)}", question))
        question = ["trick", *settings, *cards]
        answer = self.ask(game, question)
        actual = answer["winner"]["position"]
        stated = figures.winner(figure)
        if stated is not None and stated + 1 != actual:
            reasons = "; ".join(answer.get("reasons", ()))
            problems.append((f"it says the {_ordinal(stated + 1)} card ({cards[stated]}) wins, but by the rules "
                             f"the {_ordinal(actual)} card ({cards[actual - 1]}) takes the trick"
                             f"{': ' + reasons if reasons else ''}{_cites(answer)}", question))
        if figure.has("points"):
            points = answer.get("points")
            if points is None:
                problems.append((f"it gives the trick's points, but the {game.id} referee gives this trick no "
                                 "points (its trick question may need a setting, such as the suit that scores)",
                                 question))
            elif points != int(figure.value("points")):
                problems.append((f"it says the trick is worth {int(figure.value('points')):+d} points, but by "
                                 f"the rules it is worth {points:+d}: {answer['answer']}{_cites(answer)}", question))
        return problems

    def _goal(self, game, figure: Figure) -> list[str]:
        keeper = figure.value("keeper") or "none"
        question = ["goal", *self._codes(figure.cards),
                    "keeper", "none" if keeper.casefold() == "none" else self.deck.card(keeper).code]
        for name in ("house", "rival"):
            if figure.has(name):
                suit = figures.find_suit(self.deck, figure.value(name))
                question += [name, suit.id]
        answer = self.ask(game, question)
        claimed = True if figure.has("scores") else False if figure.has("blocked") else None
        if claimed is None or claimed == answer.get("allowed"):
            return []
        why = "; ".join(answer.get("reasons", ())) or answer["answer"]
        return [(f"it says the goal {'scores' if claimed else 'is blocked'}, but by the rules "
                 f"{'it may not score: ' + why if claimed else 'it scores: ' + answer['answer']}{_cites(answer)}",
                 question)]

    def _manoeuvre(self, game, figure: Figure) -> list[str]:
        kind, target = figure.manoeuvre
        question = ["manoeuvres", "dominance", *figure.values("dominance"),
                    "quaffle", (figure.value("quaffle") or "centre")]
        seats = [("p1", figure.cards)] + [(seat, values) for seat, values in figure.options if seat in figures.SEATS]
        for seat, cards in seats:
            if cards:
                question += [seat.upper(), *self._codes(cards)]
        question += [flag for flag in ("dopplebeater", "feint") if figure.has(flag)]
        answer = self.ask(game, question)
        shown = f"{kind} {target}".strip()
        wanted = shown.casefold()
        allowed = any(choice.casefold() == wanted or choice.casefold().startswith(wanted + " ")
                      for choice in answer.get("allowed", ()))
        claimed = True if figure.has("allowed") else False if figure.has("refused") else None
        if claimed is None or claimed == allowed:
            return []
        if claimed:
            why = next((reason for reason in answer.get("reasons", ()) if reason.casefold().startswith(f"not {wanted}")),
                       "; ".join(answer.get("reasons", ())))
            return [(f"it says P1 may {shown}, but by the rules P1 may not: {why or answer['answer']}{_cites(answer)}",
                     question)]
        return [(f"it says P1 may not {shown}, but by the rules P1 may: {answer['answer']}{_cites(answer)}", question)]
