"""A MUSH table's journal turned into a game log the referee reads.

The table notes every move in its journal (``+log`` shows it once the game is over), one
entry a line: ``12: play Alice 7H``. `read_journal` takes the text a player copied from their
client (pages in any order, other lines ignored) and checks that no entry is missing;
`journal_log` writes the deckgen game log (docs/game-logs.md) of the game those entries
describe. It writes down what happened at the table and judges nothing: the referee does,
from the log, with the deck's rules.

Entries (names are the players' MUSH names, cards the deck's codes):

* every game: ``start NAME...`` (seat order), ``deal NAME CODE...``, ``draw NAME CODE``,
  ``play NAME CODE``, ``discard NAME CODE``, ``<counter> NAME VALUE``, ``leave NAME``,
  ``return NAME``, ``replace OLD NEW`` (NEW plays on in OLD's seat, under OLD's name);
* trick games: ``round N dealer NAME``, ``turn CODE|none``, ``trump NAME SUIT``, ``trick NAME``,
  ``hand NAME`` and ``shun NAME CODE...`` (Wizard Hearts);
* Muggle Quidditch: ``order CODE...`` (the shuffled deck at the start), ``house NAME SUIT``,
  ``take NAME CODE``, ``putback NAME CODE``, ``goal NAME CODE CODE``, ``bludger NAME JACK TARGET``,
  ``lose NAME CODE``, ``spot``/``dive NAME CODE``, ``turnup NAME CODE``, ``shuffle NAME CODE...``,
  ``pass NAME``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..core.errors import DeckgenError

if TYPE_CHECKING:
    from ..deck.model import Deck

_ENTRY = re.compile(r"^\s*(\d+): (\S.*?)\s*$")


class JournalError(DeckgenError):
    """A journal that cannot be read as a game: names the entry and what is wrong."""

    exit_code = 2


def read_journal(text: str, source: str = "journal") -> list[str]:
    """The entries of a table's journal from copied ``+log`` output, in order."""
    entries: dict[int, str] = {}
    for line in text.splitlines():
        match = _ENTRY.match(line)
        if match:
            entries[int(match[1])] = match[2]
    if not entries:
        raise JournalError(f"{source}: no journal entries (lines such as '1: start Alice Bob'): "
                           "copy what +log shows at the table, every page of it")
    missing = [number for number in range(1, max(entries) + 1) if number not in entries]
    if missing:
        raise JournalError(f"{source}: entry {missing[0]} is missing ({len(missing)} in all): "
                           f"copy every page of +log (+log 2, +log 3...)")
    return [entries[number] for number in range(1, max(entries) + 1)]


class _Seats:
    """The players by seat, under the name each seat started with."""

    def __init__(self, entries: list[str]):
        if not entries or not entries[0].startswith("start "):
            raise JournalError("entry 1 must be 'start' and the players: the journal begins when a game starts")
        self.names = entries[0].split()[1:]
        self.current = {name.casefold(): name for name in self.names}

    def seat_name(self, name: str, number: int) -> str:
        try:
            return self.current[name.casefold()]
        except KeyError:
            raise JournalError(f"entry {number}: {name!r} is not seated at this game") from None

    def replace(self, old: str, new: str, number: int) -> None:
        self.current[new.casefold()] = self.seat_name(old, number)


def journal_log(deck: "Deck", entries: list[str]) -> dict:
    """The game log (header and engine tables, as `games.logs.dump_log` takes them)."""
    writer = _writer(deck)
    if writer is None:
        raise JournalError(f"deck {deck.id!r}: a journal of its table cannot be written as a game log yet "
                           "(games: muggle-quidditch, and [rules] trick games whose rounds are a deal, a turned "
                           "trump, bids and tricks, such as Wizard)")
    seats = _Seats(entries)
    body = writer(seats, entries)
    return {"deck": deck.id, "players": seats.names, **body}


# The parts of a [rules] trick game's round the journal does not record (no +pass, no reveal of a round suit).
_UNJOURNALLED = ("round_suit", "passing")


def _writer(deck: "Deck"):
    if deck.engine == "muggle-quidditch":
        return _muggle_quidditch
    if deck.engine == "rules" and deck.trick_rules and not any(key in deck.trick_rules for key in _UNJOURNALLED):
        return _trick_rounds
    return None


def _moves(seats: _Seats, entries: list[str]):
    """(entry number, verb, seat name or None, the other words) for each entry after 'start'."""
    for number, entry in enumerate(entries[1:], start=2):
        verb, *words = entry.split()
        if verb == "replace" and len(words) == 2:
            seats.replace(words[0], words[1], number)
            continue
        if verb in ("order", "turn"):
            yield number, verb, None, words
        elif verb == "round":
            yield number, verb, seats.seat_name(words[-1], number), words
        elif words:
            yield number, verb, seats.seat_name(words[0], number), words[1:]


def _trick_rounds(seats: _Seats, entries: list[str]) -> dict:
    rounds: list[dict] = []
    count = len(seats.names)
    played = False  # whether the round's first card is down (bids after it are not bids)
    for number, verb, name, words in _moves(seats, entries):
        if verb == "round":
            rounds.append({"dealer": name, "hands": {}})
            played = False
            continue
        if not rounds:
            if verb in ("deal", "turn", "trump", "play", "trick"):
                raise JournalError(f"entry {number}: '{verb}' before any round was dealt (+round)")
            continue
        current = rounds[-1]
        if verb == "deal":
            current["hands"][name] = words
        elif verb == "turn":
            current["turned"] = words[0] if words else "none"
        elif verb == "trump":
            current["trump"] = words[0]
        elif verb == "bid" and not played:
            current.setdefault("bids", {})[name] = int(words[0])
        elif verb == "play":
            played = True
            tricks = current.setdefault("tricks", [])
            if not tricks or len(tricks[-1]["cards"]) == count:
                tricks.append({"lead": name, "cards": []})
            tricks[-1]["cards"].append(words[0])
    return {"rounds": rounds}


# Muggle Quidditch: the table's words for the log's actions, and the entries that follow one.
_MQ_ACTIONS = {"play": "team", "goal": "goal", "bludger": "bludger", "spot": "spot", "dive": "dive",
               "discard": "discard", "pass": "pass"}


def _muggle_quidditch(seats: _Seats, entries: list[str]) -> dict:
    houses: dict[str, str] = {}
    deal: list[str] = []
    turns: list[dict] = []
    dive_over = False  # the Snitch was caught or got away: a later shuffle starts a draw step
    for number, verb, name, words in _moves(seats, entries):
        turn = turns[-1] if turns else None
        acted = turn is not None and "action" in turn
        if verb in ("catch", "escape"):
            dive_over = True
            continue
        if verb == "order":
            deal = words
        elif verb == "house":
            houses[name] = words[0]
        elif verb in ("take", "draw"):
            if turn is None or acted:
                turn = {"player": name}
                turns.append(turn)
                dive_over = False
            if verb == "take":
                turn["take"] = words[0]
            else:
                turn.setdefault("draw", []).append(words[0])
        elif verb == "putback" and turn is not None:
            drawn = turn.get("draw", [])
            if words[0] in drawn:
                drawn.reverse()
                drawn.remove(words[0])
                drawn.reverse()
        elif verb == "shuffle":  # in a dive, or before a draw step's first card from a rebuilt pile
            if acted and turn["action"].startswith("dive") and not dive_over:
                turn["dive_shuffle"] = words
                continue
            if turn is None or acted:
                turn = {"player": name}
                turns.append(turn)
                dive_over = False
            turn["shuffle"] = words
        elif verb == "lose" and turn is not None:
            turn["lose"] = words[0]
        elif verb == "turnup" and turn is not None:
            turn.setdefault("dive", []).append(words[0])
        elif verb in _MQ_ACTIONS:
            follows_bludger = acted and turn["action"].startswith("bludger") and verb == "discard" \
                and turn["player"] == name and "discard" not in turn
            if follows_bludger:
                turn["discard"] = words[0]
                continue
            if turn is None or acted:
                turn = {"player": name}
                turns.append(turn)
                dive_over = False
            turn["action"] = " ".join([_MQ_ACTIONS[verb], *words])
    body: dict = {"houses": houses, "turns": turns}
    if deal:
        body = {"deal": deal, **body}
    return body
