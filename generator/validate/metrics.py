"""The game-research metrics of a playtest, streamed: one `GameTrace` follows a game through
the simulator's observe hook, and `Metrics` folds finished games into counts, integer sums,
sums of squares and histograms. Everything is an integer (fractions are kept in millionths),
so merging chunks in any order, on any number of workers or machines, gives the same bytes.

Definitions are in docs/playtesting.md. Reading them back into figures with intervals is
`generator.validate.figures`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Any, Hashable, Sequence

from ..games.base import Game, GameState

MICRO = 1_000_000  # fractions are summed as whole millionths: exact, order-free
RATE_BINS = 20  # histograms of per-game rates in [0, 1]
# Lower edges of the turn buckets the card figures are kept in: fine early, coarse late, so a
# card's counts stay small however long games get (the controlled comparison picks one edge).
TURN_EDGES = (1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256, 384, 512,
              768, 1024)

# Per-game figures: name -> kind ("rate": a share in [0, 1]; "points": a whole score difference;
# "value": a mean in millionths).
TENSION = {"lead_change": "rate", "drama": "rate", "decisiveness": "rate", "stability": "value",
           "score_difference_mean": "value", "score_difference_max": "points", "score_difference_end": "points"}


def turn_bucket(turn: int) -> int:
    return bisect_right(TURN_EDGES, turn) - 1


class Moments:
    """Count, sum and sum of squares (in millionths) and a histogram of one per-game figure."""

    __slots__ = ("kind", "count", "total", "squares", "histogram")

    def __init__(self, kind: str):
        self.kind = kind
        self.count = self.total = self.squares = 0
        self.histogram: Counter[int] = Counter()

    def add(self, value: float) -> None:
        micro = round(value * MICRO)
        self.count += 1
        self.total += micro
        self.squares += micro * micro
        if self.kind == "rate":
            self.histogram[min(int(value * RATE_BINS), RATE_BINS - 1)] += 1
        elif self.kind == "points":
            self.histogram[round(value)] += 1

    def merge(self, other: "Moments") -> None:
        self.count += other.count
        self.total += other.total
        self.squares += other.squares
        self.histogram.update(other.histogram)

    def state(self) -> list:
        return [self.count, self.total, self.squares, sorted(self.histogram.items())]

    @classmethod
    def from_state(cls, kind: str, data: list) -> "Moments":
        moments = cls(kind)
        moments.count, moments.total, moments.squares = data[0], data[1], data[2]
        moments.histogram = Counter({int(k): v for k, v in data[3]})
        return moments


class Metrics:
    """Everything beyond the validator's seat counters, for one (setting, player count, bot mix)."""

    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.no_winner = 0
        self.shared = 0
        self.actions: Counter[int] = Counter()  # every action per game, chance included
        self.rounds: Counter[int] = Counter()  # rounds per game, for engines whose summary lists them
        self.player_states = 0  # states where a seat was to act
        self.choice_states = 0  # ... with more than one legal action
        self.branching: Counter[int] = Counter()  # legal actions per such state
        self.tension = {name: Moments(kind) for name, kind in TENSION.items()}
        self.focus_games = 0  # mixed games: the heuristic seat's games and wins (skill)
        self.focus_wins = 0
        # Cards: (code, first-drawn bucket, seat-length bucket, won) for each seat-game that drew
        # the card; (code, length bucket, won) for each that played it; (length bucket, won) for
        # every seat-game.
        self.drawn: Counter[tuple] = Counter()
        self.played: Counter[tuple] = Counter()
        self.seat_games: Counter[tuple] = Counter()
        self.tracks_cards = False

    def merge(self, other: "Metrics") -> None:
        self.games += other.games
        self.no_winner += other.no_winner
        self.shared += other.shared
        self.player_states += other.player_states
        self.choice_states += other.choice_states
        self.focus_games += other.focus_games
        self.focus_wins += other.focus_wins
        self.tracks_cards = self.tracks_cards or other.tracks_cards
        for mine, theirs in ((self.actions, other.actions), (self.rounds, other.rounds),
                             (self.branching, other.branching), (self.drawn, other.drawn),
                             (self.played, other.played), (self.seat_games, other.seat_games)):
            mine.update(theirs)
        for name, moments in self.tension.items():
            moments.merge(other.tension[name])

    def state(self) -> dict:
        """Plain, sorted data: equal aggregates give equal JSON, whatever order they merged in."""
        return {"players": self.players, "games": self.games, "no_winner": self.no_winner, "shared": self.shared,
                "actions": sorted(self.actions.items()), "rounds": sorted(self.rounds.items()),
                "player_states": self.player_states, "choice_states": self.choice_states,
                "branching": sorted(self.branching.items()),
                "tension": {name: m.state() for name, m in sorted(self.tension.items())},
                "focus_games": self.focus_games, "focus_wins": self.focus_wins, "tracks_cards": self.tracks_cards,
                "drawn": sorted([list(k), v] for k, v in self.drawn.items()),
                "played": sorted([list(k), v] for k, v in self.played.items()),
                "seat_games": sorted([list(k), v] for k, v in self.seat_games.items())}

    @classmethod
    def from_state(cls, data: dict) -> "Metrics":
        metrics = cls(data["players"])
        for key in ("games", "no_winner", "shared", "player_states", "choice_states", "focus_games", "focus_wins",
                    "tracks_cards"):
            setattr(metrics, key, data[key])
        for key in ("actions", "rounds", "branching"):
            setattr(metrics, key, Counter({int(k): v for k, v in data[key]}))
        for key in ("drawn", "played", "seat_games"):
            setattr(metrics, key, Counter({tuple(k): v for k, v in data[key]}))
        metrics.tension = {name: Moments.from_state(kind, data["tension"][name]) for name, kind in TENSION.items()}
        return metrics


class GameTrace:
    """One game, move by move, through the simulator's observe hook: branching, the scores at
    each checkpoint (the evaluation series), the leader, and for each seat when it first held
    each card and which cards it played: those its action names, where the engine's profile
    says how an action names a card, else those that left its hand by its own action."""

    def __init__(self, game: Game, players: int, profile: Any):
        self.game = game
        self.players = players
        self.every_cycle = not profile.lead_by_rounds
        self.read_scores = profile.scores
        self.hand = profile.hand
        self.code = profile.code
        self.card_plays = profile.card_plays
        self.action_card = profile.action_card
        self.state: GameState | None = None
        self.series: list[tuple[int, ...]] = []
        self.previous_player = -1
        self.branching: dict[int, int] = {}  # legal actions -> states where a seat was to act
        self.turns = [0] * players  # each seat's own decisions so far
        self.seen: list[set] = [set() for _ in range(players)]
        self.first_held: list[dict[Hashable, int]] = [{} for _ in range(players)]
        self.played: list[set] = [set() for _ in range(players)]
        self.plays = [Counter() for _ in range(players)]  # card codes put into play, by the profile's card_plays
        self.last: list[Any] = [None] * players  # each seat's hand as last looked at (a copy)
        self.before: tuple[int, Any] | None = None  # (seat, its hand) at its last decision

    def __call__(self, state: GameState, player: int, action) -> None:
        # Called before every action of every game: kept lean (locals, no helper calls on the
        # common path), since it is most of what the metrics cost.
        self.state = state
        if self.before is not None:
            self._left_hand(state)
        if player < 0:
            return
        legal = len(state.legal_actions())
        branching = self.branching
        branching[legal] = branching.get(legal, 0) + 1
        if self.every_cycle and player == 0 and self.previous_player != 0:
            self.series.append(tuple(self.read_scores(state)))
        self.previous_player = player
        turns = self.turns
        turn = turns[player] = turns[player] + 1
        if self.hand is not None:
            hand = self.hand(state, player)
            snapshot = self.last[player]
            if hand != snapshot:  # most decisions find the hand as the seat's last action left it
                new = set(hand).difference(self.seen[player])
                if new:
                    self._first(player, new, turn)
                snapshot = self.last[player] = hand.copy()
            action_card = self.action_card
            if action_card is not None:
                key = action_card(action)
                if key is not None:
                    self.played[player].add(key)
                    # Expect the hand without it next time, so an unchanged hand needs no scan.
                    if key in snapshot:
                        snapshot.remove(key)
            elif self.card_plays is None:
                self.before = (player, snapshot)
        if self.card_plays is not None:
            for code in self.card_plays(self.game, state, player, action):
                self.plays[player][code] += 1

    def _left_hand(self, state: GameState) -> None:
        # A card left the hand when it is no longer in it after its holder's action (a copy
        # that leaves while another copy stays is not seen: cheap, and rare).
        seat, before = self.before
        self.before = None
        after = self.hand(state, seat)
        if after != before:
            gone = set(before).difference(after)
            self.played[seat].update(gone)
            if len(after) + len(gone) > len(before):  # its own action brought cards in too (a draw, a swap)
                self._see(seat, after, self.turns[seat])
            self.last[seat] = after.copy()

    def _see(self, seat: int, hand: Any, turn: int) -> None:
        new = set(hand).difference(self.seen[seat])
        if new:
            self._first(seat, new, turn)

    def _first(self, seat: int, new: set, turn: int) -> None:
        self.seen[seat] |= new
        first = self.first_held[seat]
        for key in new:
            first[key] = turn

    def lead_changes(self) -> int:
        """Changes of the sole leader along the series (ties change nothing), as the counters do."""
        sign = -1 if self.game.lower_score_wins else 1
        leader, changes = None, 0
        for row in self.series:
            best = max(sign * score for score in row)
            leaders = [seat for seat, score in enumerate(row) if sign * score == best]
            if len(leaders) == 1:
                if leader is not None and leaders[0] != leader:
                    changes += 1
                leader = leaders[0]
        return changes

    def close(self, scores: Sequence[int]) -> None:
        """The game is over: see the last action's effect and complete the series."""
        if self.before is not None and self.state is not None:
            self._left_hand(self.state)
        if not self.every_cycle and self.state is not None:
            for entry in self.state.summary().get("rounds", ()):
                totals = entry.get("columns", {}).get("total")
                if totals and not entry.get("in_progress"):
                    self.series.append(tuple(totals))
        if not self.series or self.series[-1] != tuple(scores):
            self.series.append(tuple(scores))

    def finish(self, metrics: Metrics, scores: Sequence[int], winners: Sequence[int], actions: int, rounds: int,
               focus: int | None) -> None:
        metrics.games += 1
        metrics.actions[actions] += 1
        if rounds:
            metrics.rounds[rounds] += 1
        if not winners:
            metrics.no_winner += 1
        elif len(winners) > 1:
            metrics.shared += 1
        states = sum(self.branching.values())
        metrics.player_states += states
        metrics.choice_states += states - self.branching.get(1, 0)
        metrics.branching.update(self.branching)
        if focus is not None:
            metrics.focus_games += 1
            metrics.focus_wins += focus in winners
        for name, value in tension(self.series, winners, self.game.lower_score_wins).items():
            metrics.tension[name].add(value)
        if self.hand is not None:
            self._cards(metrics, winners)

    def _cards(self, metrics: Metrics, winners: Sequence[int]) -> None:
        metrics.tracks_cards = True
        codes: dict[Hashable, str] = {}

        def code(key: Hashable) -> str:
            if key not in codes:
                codes[key] = self.code(self.game, key)
            return codes[key]

        # Keys gathered in the order the counts would be bumped one by one, then counted by
        # `Counter.update` (in C): the same counts, and the same order of first appearance.
        seat_games, drawn, played_keys = [], [], []
        for seat in range(self.players):
            won = int(seat in winners)
            length = turn_bucket(max(self.turns[seat], 1))
            seat_games.append((length, won))
            drawn += [(code(key), bisect_right(TURN_EDGES, turn) - 1, length, won)  # turn_bucket(turn)
                      for key, turn in self.first_held[seat].items()]
            played = self.plays[seat] if self.card_plays is not None else map(code, self.played[seat])
            played_keys += [(card, length, won) for card in played]
        metrics.seat_games.update(seat_games)
        metrics.drawn.update(drawn)
        metrics.played.update(played_keys)


def tension(series: Sequence[Sequence[int]], winners: Sequence[int], lower_wins: bool) -> dict[str, float]:
    """The tension figures of one game from its scores at each checkpoint (the last is final).

    Scores become an evaluation in [0, 1] per seat: the score's place in the range of scores
    seen in this game (flipped when the lowest score wins), so the figures do not depend on
    how many points a game hands out."""
    sign = -1 if lower_wins else 1
    low = min(min(row) for row in series)
    high = max(max(row) for row in series)
    spread = (high - low) or 1
    values = [[(score - low) / spread if sign > 0 else (high - score) / spread for score in row] for row in series]
    points = len(values)
    leaders = [frozenset(seat for seat, v in enumerate(row) if v == max(row)) for row in values]
    changes = sum(1 for before, after in zip(leaders, leaders[1:]) if before != after)
    margins = []
    for row in series:
        ordered = sorted((sign * score for score in row), reverse=True)
        margins.append(ordered[0] - ordered[1] if len(ordered) > 1 else 0)
    seats = len(values[0])
    stability = 0.0
    for seat in range(seats):
        column = [row[seat] for row in values]
        mean = sum(column) / points
        stability += sum((v - mean) ** 2 for v in column) / points
    figures = {"lead_change": changes / (points - 1) if points > 1 else 0.0, "stability": stability,
               "score_difference_mean": sum(margins) / points, "score_difference_max": max(margins),
               "score_difference_end": margins[-1]}
    if winners:
        best = max(winners, key=lambda seat: values[-1][seat])
        gaps = [max(row) - row[best] for row in values]
        figures["drama"] = sum(gaps) / points
        others = [row[seat] for row in values for seat in range(seats) if seat not in winners]
        threshold = max(others) if others else -1.0
        decided = next((t for t, row in enumerate(values) if row[best] > threshold), points - 1)
        figures["decisiveness"] = (decided + 1) / points
    return figures
