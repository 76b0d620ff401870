"""One game at the table: the engine's state, who sits where (people and bots), every action in
order with how each seat saw it, the owner's undo, and the game's log, written after every move.

The engine decides everything: a move is applied to a copy of the state, so a refused one
(`IllegalAction`, naming the rule) leaves the game as it was; chance is drawn from a seeded
generator; the log is the engine's own (`Game.log_body`), so `deckgen referee` replays it.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import DeckgenError
from ..core.output import write_text
from ..games.base import CHANCE, TERMINAL, Action, Game, IllegalAction
from ..games.bots import make_bot
from ..games.simulate import derive_seed, game_log_text

PERSON = "person"
EVENTS_SHOWN = 40  # the latest moves a seat's page lists


class TableError(DeckgenError):
    """A request the table cannot take (not your turn, nothing to undo...): said to that seat only."""


@dataclass(frozen=True)
class SeatPlan:
    """Who sits in one seat: a name for the log and "person" or a bot level."""

    name: str
    kind: str

    @property
    def person(self) -> bool:
        return self.kind == PERSON


def default_plan(players: int) -> list[SeatPlan]:
    """The first seat a person, the others heuristic bots, named P1, P2... as `simulate`'s logs."""
    return [SeatPlan(f"P{seat + 1}", PERSON if seat == 0 else "heuristic") for seat in range(players)]


class Table:
    """One game in progress (or over) and its log file."""

    def __init__(self, game: Game, seats: list[SeatPlan], log_path: Path, seed: int, comments: list[str]):
        self.game = game
        self.seats = seats
        self.names = tuple(seat.name for seat in seats)
        self.log_path = log_path
        self.comments = comments
        self.state = self._fresh_state()
        self.actions: list[Action] = []
        self.actors: list[int] = []  # who took each action (CHANCE for chance)
        self.texts: list[str] = []  # each action as the log writes it
        self.seen: list[tuple[dict | None, ...]] = []  # each action as the onlooker, then each seat, saw it
        self.undone: list[dict] = []  # the [[undo]] entries of the log
        self.chance_rng = random.Random(derive_seed(seed, "chance"))
        self.bots = {seat: make_bot(game, plan.kind, random.Random(derive_seed(seed, "seat", seat)))
                     for seat, plan in enumerate(seats) if not plan.person}
        self.replayed_chance: deque[Action] = deque()  # chance taken back by an undo, dealt again in order
        self.write_log()

    def _fresh_state(self):
        state = self.game.new_state(len(self.seats))
        state.player_names = self.names
        return state

    # -- whose turn, what may be done ------------------------------------------------------------

    def to_act(self) -> int:
        return self.state.current_player()

    @property
    def over(self) -> bool:
        return self.to_act() == TERMINAL

    def person_to_act(self) -> int | None:
        seat = self.to_act()
        return seat if seat >= 0 and self.seats[seat].person else None

    def moves(self) -> list[dict]:
        """The legal actions of the seat to act: {"id", "text", "cards"} (the card codes the
        action names, so a page can offer it on those cards)."""
        codes = {card.code for card in self.game.deck.cards}
        moves = []
        for index, action in enumerate(self.state.legal_actions()):
            text = self.game.format_action(self.state, action)
            moves.append({"id": index, "text": text, "cards": [word for word in text.split() if word in codes]})
        return moves

    def move(self, move_id: int) -> Action:
        legal = self.state.legal_actions()
        if not 0 <= move_id < len(legal):
            raise TableError(f"no move {move_id} here: the table has moved on, reload the page")
        return legal[move_id]

    def parse(self, text: str) -> Action:
        """A move typed at the table, read as a log writes it; `TableError` if unreadable."""
        try:
            return self.game.parse_action(self.state, text)
        except ValueError as error:
            raise TableError(f"cannot read {text!r} as a move: {error}") from None

    # -- playing ---------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one action for whoever is to act; `IllegalAction` (the game unchanged) if the
        rules refuse it. Each seat's sight of it is kept, and the log rewritten."""
        before = self.state
        actor = before.current_player()
        after = before.clone()
        after.apply(action)
        text = self.game.format_action(before, action)
        seen = tuple(self.game.action_view(before, action, after, seat) for seat in (None, *range(len(self.seats))))
        self.state = after
        self.actions.append(action)
        self.actors.append(actor)
        self.texts.append(text)
        self.seen.append(seen)
        self.write_log()

    def play_automatic(self) -> None:
        """Chance or a bot, whichever is to act: chance an undo took back comes again first."""
        actor = self.to_act()
        if actor == CHANCE:
            while self.replayed_chance:
                action = self.replayed_chance.popleft()
                try:
                    return self.apply(action)
                except IllegalAction:  # the game took another way since: draw afresh from here on
                    self.replayed_chance.clear()
            return self.apply(self.state.sample_chance(self.chance_rng))
        if actor >= 0 and not self.seats[actor].person:
            return self.apply(self.bots[actor].choose(self.state))
        raise TableError("a person is to act")

    def undo(self) -> dict:
        """Take back the last move a person made, with every move after it (chance taken back is
        dealt again the same way); the undo is written in the log's `[[undo]]`."""
        people = [index for index, actor in enumerate(self.actors) if actor >= 0 and self.seats[actor].person]
        if not people:
            raise TableError("no move by a person to take back")
        cut = people[-1]
        moves = [f"{self.names[actor]}: {text}"
                 for actor, text in zip(self.actors[cut:], self.texts[cut:]) if actor >= 0]
        chance = [action for actor, action in zip(self.actors[cut:], self.actions[cut:]) if actor == CHANCE]
        self.replayed_chance.extendleft(reversed(chance))
        state = self._fresh_state()
        for action in self.actions[:cut]:
            state.apply(action)
        self.state = state
        entry = {"after": cut, "player": self.names[self.actors[cut]], "moves": moves}
        for kept in (self.actions, self.actors, self.texts, self.seen):
            del kept[cut:]
        self.undone.append(entry)
        self.write_log()
        return entry

    # -- what a seat sees ------------------------------------------------------------------------

    def events(self, seat: int | None) -> list[dict]:
        """The latest moves as `seat` saw them (None: an onlooker), oldest first."""
        column = 0 if seat is None else seat + 1
        shown = [seen[column] for seen in self.seen[-EVENTS_SHOWN:]]
        return [event for event in shown if event is not None]

    def last_trick(self, seat: int | None) -> dict | None:
        """The last trick taken since chance last acted (a deal starts a new hand), as `seat`
        saw it; None in a game without tricks."""
        column = 0 if seat is None else seat + 1
        for actor, seen in zip(reversed(self.actors), reversed(self.seen)):
            if actor == CHANCE:
                return None
            event = seen[column]
            if event is not None and "trick" in event:
                return event["trick"]
        return None

    def outcome(self) -> dict | None:
        outcome = self.state.outcome()
        if outcome is None:
            return None
        return {"scores": list(outcome.scores), "winners": [self.names[seat] for seat in outcome.winners],
                "draw": outcome.draw, "reason": outcome.reason}

    # -- the log ---------------------------------------------------------------------------------

    def write_log(self) -> None:
        write_text(self.log_path, game_log_text(self.game, self.names, self.actions, self.comments, self.undone,
                                                every_param=True))
