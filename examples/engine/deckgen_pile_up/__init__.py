"""Pile Up, an example deckgen engine: the one docs/engines.md walks through.

Players take turns laying one card from hand on a shared pile; the pile's total may never pass
the target (21). The card that brings it to exactly the target scores a point and clears the
pile. A player with no card that fits passes; when everyone has passed in a row, the pile is
cleared with no point. After laying a card a player draws one from the stock while it lasts.
The game ends when every hand is empty; most points wins.

Actions are plain data: a card code ("5R") or "pass" for a player, a tuple of every card code
in shuffled order for the deal (chance). The rule ids are those of examples/engine/pile-up.toml.
"""

from __future__ import annotations

import random
from typing import Iterator, Sequence

from generator.core.errors import DeckgenError
from generator.games.base import CHANCE, TERMINAL, Game, GameState, IllegalAction, Outcome, Pending
from generator.games.bots import HeuristicBot
from generator.games.logs import GameLog, LogStep
from generator.games.profile import PlaytestProfile, TableKit
from generator.games.questions import Question
from generator.games.requirements import Checker

PASS = "pass"
R_DEAL, R_LAY, R_LIMIT, R_PASS, R_RUN = ("pile.setup.deal", "pile.play.lay", "pile.play.limit", "pile.play.pass",
                                         "pile.scoring.run")


class PileUpState(GameState):
    def __init__(self, game: "PileUpGame", num_players: int):
        self.game = game
        self.num_players = num_players
        self.hands: list[list[str]] = [[] for _ in range(num_players)]
        self.stock: list[str] = []
        self.pile: list[str] = []
        self.dealt = False
        self.turn = 0
        self.passes = 0  # passes in a row
        self.points = [0] * num_players

    def current_player(self) -> int:
        if not self.dealt:
            return CHANCE
        return TERMINAL if not any(self.hands) else self.turn

    def total(self) -> int:
        return sum(self.game.value[code] for code in self.pile)

    def legal_actions(self) -> list[str]:
        seat = self.current_player()
        if seat < 0:
            return []
        room = self.game.params["target"] - self.total()
        return sorted({code for code in self.hands[seat] if self.game.value[code] <= room}) or [PASS]

    def apply(self, action) -> None:
        seat = self.current_player()
        if seat == CHANCE:
            self._deal(action)
            return
        if action not in self.legal_actions():
            raise self._refusal(seat, action)
        if action == PASS:
            self.passes += 1
            if self.passes == self.num_players:  # everyone passed: clear the pile, nobody scores
                self.pile, self.passes = [], 0
        else:
            self.hands[seat].remove(action)
            self.pile.append(action)
            self.passes = 0
            if self.total() == self.game.params["target"]:
                self.points[seat] += 1
                self.pile = []
            if self.stock:
                self.hands[seat].append(self.stock.pop(0))
        self.turn = (seat + 1) % self.num_players

    def _refusal(self, seat: int, action) -> IllegalAction:
        legal = self.legal_actions()
        where = {"player": seat}
        if action == PASS:
            return IllegalAction(f"{self.player_name(seat)} may not pass while a card fits", R_PASS, legal, where)
        if not isinstance(action, str) or action not in self.hands[seat]:
            return IllegalAction(f"{action!r} is not a card in {self.player_name(seat)}'s hand", R_LAY, legal, where)
        return IllegalAction(f"{action} would bring the pile from {self.total()} past {self.game.params['target']}",
                             R_LIMIT, legal, where)

    def _deal(self, order) -> None:
        if not isinstance(order, tuple) or sorted(order) != sorted(self.game.codes):
            raise IllegalAction("a deal is every card of the deck once, in shuffled order", R_DEAL)
        size = self.game.params["hand_size"]
        self.hands = [list(order[seat * size:(seat + 1) * size]) for seat in range(self.num_players)]
        self.stock = list(order[self.num_players * size:])
        self.dealt = True

    def sample_chance(self, rng: random.Random) -> tuple[str, ...]:
        order = list(self.game.codes)
        rng.shuffle(order)
        return tuple(order)

    def outcome(self) -> Outcome | None:
        if self.current_player() != TERMINAL:
            return None
        best = max(self.points)
        return Outcome(tuple(self.points), tuple(seat for seat, p in enumerate(self.points) if p == best))

    def summary(self) -> dict:
        return {"scores": list(self.points), "pile": self.total(), "stock": len(self.stock)}

    def pending(self) -> Pending | None:
        seat = self.current_player()
        if seat < 0:
            return super().pending()
        return Pending(seat, "lay a card on the pile, or pass when none fits", R_LIMIT)

    def table_view(self) -> dict:
        return {"hands": [sorted(hand) for hand in self.hands], "areas": [{"title": "Pile", "cards": list(self.pile)}],
                "counters": {"pile total": self.total(), "stock": len(self.stock)}, "scores": list(self.points)}


class PileUpBot(HeuristicBot):
    """Makes the target when it can; otherwise lays the largest card that leaves the next
    player no way to make it, else the smallest card."""

    def choose(self, state: PileUpState) -> str:
        legal = state.legal_actions()
        if legal == [PASS]:
            return PASS
        value, target, total = state.game.value, state.game.params["target"], state.total()
        scoring = [code for code in legal if total + value[code] == target]
        if scoring:
            return self.pick(scoring)
        safe = [code for code in legal if target - total - value[code] > max(value.values())]
        if safe:
            return max(safe, key=value.__getitem__)
        return min(legal, key=value.__getitem__)


def requirements(check: Checker) -> None:
    """Every card has a number from 1 to the target, and the deal fits the deck."""
    deck, params = check.deck, check.params
    for card in deck.cards:
        value = deck.rank(card.rank).value if card.rank else None
        if value is None or not 1 <= value <= params["target"]:
            check.error(check.locate.card_field(card, "rank"), f"card {card.code} needs a number from 1 to "
                        f"{params['target']} (its rank's value)")
    for players in check.player_counts:
        dealt = params["hand_size"] * players
        check.figure(players, "stock", deck.total - dealt)
        if dealt > deck.total:
            check.error("engine.hand_size", f"{players} hands of {params['hand_size']} need {dealt} cards; the "
                        f"deck has {deck.total}")


def lay_question(game: "PileUpGame", words: Sequence[str]) -> dict:
    """`play CARD on TOTAL`: may this card be laid on a pile of that total, and does it score?"""
    parts = " ".join(words).split()
    if len(parts) != 4 or parts[2].casefold() != "on" or not parts[3].isdigit():
        raise DeckgenError("ask `play CARD on TOTAL`, e.g. `play 5R on 16`")
    card = game.deck.find_card(parts[1])
    if card is None:
        raise DeckgenError(f"{parts[1]!r} is not a card of the deck")
    total, target, value = int(parts[3]), game.params["target"], game.value[card.code]
    if total >= target:
        raise DeckgenError(f"a pile holds at most {target - 1} between turns")
    allowed = total + value <= target
    points = int(total + value == target)
    answer = (f"Yes: {card.code} brings the pile to {total + value}" + (f" and scores {points} point." if points
              else ".") if allowed else f"No: {card.code} would bring the pile past {target}.")
    return {"answer": answer, "allowed": allowed, "points": points if allowed else 0,
            "reasons": [f"{card.code} is worth {value}; the pile stands at {total}"],
            "rules": [R_LIMIT, R_RUN] if points else [R_LIMIT], "rulings": []}


class PileUpGame(Game):
    id = "pile-up"
    min_players = 2
    max_players = 4
    defaults = {"target": 21, "hand_size": 4}
    log_sections = ("deal", "plays")
    questions = (
        Question("play", "play", "play CARD on TOTAL", "may this card be laid on a pile of that total",
                 "play 5R on 16", lay_question),
        Question("score", "score", "score CARD on TOTAL", "what laying this card on a pile of that total scores",
                 "score 5R on 16", lay_question),
    )
    playtest = PlaytestProfile(hand=lambda state, seat: state.hands[seat])
    table_kit = TableKit(counters=("score", "pile"), stats=("Points",))
    deck_requirements = staticmethod(requirements)

    def __init__(self, deck, params=None):
        super().__init__(deck, params)
        for key in ("target", "hand_size"):
            if self.params[key] < 1:
                raise DeckgenError(f"{deck.source}: [engine] {key} must be 1 or more")
        self.value = {card.code: deck.rank(card.rank).value if card.rank else None for card in deck.cards}
        if any(value is None or value < 1 for value in self.value.values()):
            raise DeckgenError(f"{deck.source}: every Pile Up card needs a rank with a value of 1 or more")
        self.codes = tuple(card.code for card in deck.copies())

    def new_state(self, num_players: int) -> PileUpState:
        self.check_players(num_players)
        return PileUpState(self, num_players)

    def score_bounds(self, num_players: int) -> tuple[int, int]:
        return 0, sum(self.value[code] for code in self.codes) // self.params["target"]

    def max_actions(self, num_players: int) -> int:
        # the deal, each card laid once, and between two cards at most one round of passes to
        # clear the pile and one more while empty hands pass
        return 1 + len(self.codes) * 2 * num_players

    def format_action(self, state: PileUpState, action) -> str:
        return "deal " + " ".join(action) if isinstance(action, tuple) else str(action)

    def parse_action(self, state: PileUpState, text: str):
        word = text.strip()
        return PASS if word.casefold() == PASS else self.deck.card(word).code

    def log_steps(self, log: GameLog, state: PileUpState) -> Iterator[LogStep]:
        deal = log.root.table("deal", None)
        if deal is None:
            yield LogStep(None, "deal")
        else:
            deal.check_keys(("order",))
            order = deal.get("order", list)
            yield LogStep(tuple(log.card(code, deal.at(index)).code
                                for index, code in enumerate(order)), deal.at("order"))
        for entry in log.sections("plays"):
            entry.check_keys(("player", "card"))
            seat = log.seat(entry.get("player", str), entry.at("player"))
            if seat != state.current_player():
                raise IllegalAction(f"it is {state.player_name(state.current_player())}'s turn, not "
                                    f"{log.players[seat]}'s", R_LAY, where={"player": seat, "field": entry.at("player")})
            card = entry.get("card", str)
            yield LogStep(PASS if card.casefold() == PASS else log.card(card, entry.at("card")).code, entry.at("card"))

    def log_body(self, players: Sequence[str], actions: Sequence) -> dict:
        state = self.new_state(len(players))
        plays = []
        for action in actions:
            if state.current_player() >= 0:
                plays.append({"player": players[state.current_player()], "card": action})
            state.apply(action)
        return {"deal": {"order": list(actions[0])}, "plays": plays} if actions else {"plays": []}

    def bot(self, kind: str, rng: random.Random):
        return PileUpBot(rng) if kind == "heuristic" else super().bot(kind, rng)

