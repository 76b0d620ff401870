"""The game-research metrics of a playtest, streamed: one `GameTrace` follows a game through
the simulator's observe hook, and `Metrics` folds finished games into counts, integer sums,
sums of squares and histograms. Everything is an integer (fractions are kept in millionths),
so merging chunks in any order, on any number of workers or machines, gives the same bytes.

Definitions are in docs/playtesting.md. Reading them back into figures with intervals is
`generator.validate.figures`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Hashable, Sequence

from ..games.base import Game, GameState
from .sums import GameSums

MICRO = 1_000_000  # fractions are summed as whole millionths: exact, order-free
RATE_BINS = 20  # histograms of per-game rates in [0, 1]
# Per-game figures: name -> kind ("rate": a share in [0, 1]; "points": a whole score difference;
# "value": a mean in millionths).
TENSION = {"lead_change": "rate", "drama": "rate", "decisiveness": "rate", "stability": "value",
           "score_difference_mean": "value", "score_difference_max": "points", "score_difference_end": "points"}


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
        self.focus_games = 0  # games with one focus seat (skill): its games and wins
        self.focus_wins = 0
        self.focus_beats = Moments("rate")  # per such game: the share of other seats it finished ahead of
        # Cards (generator.validate.cards): per card, one vector per game in which some seats were
        # dealt it and others not: (Σ holders' outcome − the others', in millionths; such deals).
        self.effects: dict[str, GameSums] = {}
        # ... per card, for engines that deal once: (seats that held it, of them winners, seats that
        # played it, of them winners), one vector per game in which anyone held it.
        self.holding: dict[str, GameSums] = {}
        self.outcome = Moments("value")  # every seat's outcome in every deal: the scale of an effect
        self.tracks_cards = False
        self.per_round = False  # effects are per round (a deal each round), not per game

    def merge(self, other: "Metrics") -> None:
        self.games += other.games
        self.no_winner += other.no_winner
        self.shared += other.shared
        self.player_states += other.player_states
        self.choice_states += other.choice_states
        self.focus_games += other.focus_games
        self.focus_wins += other.focus_wins
        self.focus_beats.merge(other.focus_beats)
        self.tracks_cards = self.tracks_cards or other.tracks_cards
        self.per_round = self.per_round or other.per_round
        for mine, theirs in ((self.actions, other.actions), (self.rounds, other.rounds),
                             (self.branching, other.branching)):
            mine.update(theirs)
        for name, moments in self.tension.items():
            moments.merge(other.tension[name])
        self.outcome.merge(other.outcome)
        for mine, theirs in ((self.effects, other.effects), (self.holding, other.holding)):
            for code, sums in theirs.items():
                if code in mine:
                    mine[code].merge(sums)
                else:
                    mine[code] = GameSums(sums.k, sums.values)

    def state(self) -> dict:
        """Plain, sorted data: equal aggregates give equal JSON, whatever order they merged in."""
        return {"players": self.players, "games": self.games, "no_winner": self.no_winner, "shared": self.shared,
                "actions": sorted(self.actions.items()), "rounds": sorted(self.rounds.items()),
                "player_states": self.player_states, "choice_states": self.choice_states,
                "branching": sorted(self.branching.items()),
                "tension": {name: m.state() for name, m in sorted(self.tension.items())},
                "focus_games": self.focus_games, "focus_wins": self.focus_wins,
                "focus_beats": self.focus_beats.state(), "tracks_cards": self.tracks_cards,
                "per_round": self.per_round, "outcome": self.outcome.state(),
                "effects": sorted([code, sums.values] for code, sums in self.effects.items()),
                "holding": sorted([code, sums.values] for code, sums in self.holding.items())}

    @classmethod
    def from_state(cls, data: dict) -> "Metrics":
        metrics = cls(data["players"])
        for key in ("games", "no_winner", "shared", "player_states", "choice_states", "focus_games", "focus_wins",
                    "tracks_cards", "per_round"):
            setattr(metrics, key, data[key])
        for key in ("actions", "rounds", "branching"):
            setattr(metrics, key, Counter({int(k): v for k, v in data[key]}))
        metrics.tension = {name: Moments.from_state(kind, data["tension"][name]) for name, kind in TENSION.items()}
        metrics.focus_beats = Moments.from_state("rate", data["focus_beats"])
        metrics.outcome = Moments.from_state("value", data["outcome"])
        metrics.effects = {code: GameSums(EFFECT_VARIABLES, values) for code, values in data["effects"]}
        metrics.holding = {code: GameSums(HOLDING_VARIABLES, values) for code, values in data["holding"]}
        return metrics


EFFECT_VARIABLES = 2  # (contrast sum in millionths, contested deals)
HOLDING_VARIABLES = 4  # (held, held and won, played, played and won)


class GameTrace:
    """One game, move by move, through the simulator's observe hook: branching, the scores at
    each checkpoint (the evaluation series), the hands as dealt (each round's deal in trick
    games, the opening hands in others) and, for engines that deal once, every card each seat
    held and played: those its action names, where the engine's profile says how an action
    names a card, else those that left its hand by its own action."""

    def __init__(self, game: Game, players: int, profile: Any):
        self.game = game
        self.players = players
        self.every_cycle = not profile.lead_by_rounds
        self.read_scores = profile.scores
        self.hand = profile.hand
        self.code = profile.code
        self.round_of = profile.round_of
        self.card_plays = profile.card_plays
        # Which cards each seat held and played, for engines that deal once: trick engines deal
        # every card of a hand and play all of them, so there it says nothing (and costs most).
        self.watch_hands = profile.hand is not None and profile.round_of is None
        self.state: GameState | None = None
        self.summary: dict | None = None
        self.series: list[tuple[int, ...]] = []
        self.previous_player = -1
        self.branching: dict[int, int] = {}  # legal actions -> states where a seat was to act
        self.dealt: list[tuple[int, list]] = []  # (round, each seat's hand as dealt)
        self.deal_round: int | None = None
        self.seen: list[set] = [set() for _ in range(players)]
        self.played: list[set] = [set() for _ in range(players)]
        self.plays = [Counter() for _ in range(players)]  # card codes put into play, by the profile's card_plays
        self.last: list[Any] = [None] * players  # each seat's hand as last looked at (a copy)
        self.known_codes: dict[Hashable, str] = {}
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
        if self.hand is not None:
            deal = self.round_of(state) if self.round_of is not None else 0
            if deal != self.deal_round:
                self._deal(state, deal)
        if self.watch_hands:
            hand = self.hand(state, player)
            snapshot = self.last[player]
            if hand != snapshot:  # most decisions find the hand as the seat's last action left it
                self.seen[player].update(hand)
                snapshot = self.last[player] = hand.copy()
            if self.card_plays is None:
                self.before = (player, snapshot)
        if self.card_plays is not None:
            for code in self.card_plays(self.game, state, player, action):
                self.plays[player][code] += 1

    def _deal(self, state: GameState, deal: int) -> None:
        """The hands as dealt: taken at the first decision after the deal, once every seat has a
        hand (a seat may act before the deal, as when houses are chosen)."""
        hands = [self.hand(state, seat) for seat in range(self.players)]
        if all(hands):
            self.dealt.append((deal, [set(hand) for hand in hands]))
            self.deal_round = deal

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
                self.seen[seat].update(after)
            self.last[seat] = after.copy()

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
            self.summary = self.state.summary()
            for entry in self.summary.get("rounds", ()):
                totals = entry.get("columns", {}).get("total")
                if totals and not entry.get("in_progress"):
                    self.series.append(tuple(totals))
        if not self.series or self.series[-1] != tuple(scores):
            self.series.append(tuple(scores))

    def finish(self, metrics: Metrics, scores: Sequence[int], winners: Sequence[int], actions: int, rounds: int,
               focus: int | None) -> None:
        """Fold the finished game into `metrics` (`focus`: the seat of a skill run's focus player)."""
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
        lower_wins = self.game.lower_score_wins
        if focus is not None:
            metrics.focus_games += 1
            metrics.focus_wins += focus in winners
            metrics.focus_beats.add(beaten_share(focus, scores, winners, lower_wins))
        for name, value in tension(self.series, winners, lower_wins).items():
            metrics.tension[name].add(value)
        if self.hand is not None:
            self._cards(metrics, winners)

    def deal_outcomes(self, winners: Sequence[int]) -> dict[int, list[float]]:
        """Each deal's outcome for every seat: in trick games the points of that round (negated
        when the lowest score wins), else whether the seat won the game."""
        if self.round_of is None:
            return {0: [float(seat in winners) for seat in range(self.players)]}
        sign = -1 if self.game.lower_score_wins else 1
        rounds = (self.summary or self.state.summary()).get("rounds", ())
        return {entry["round"] - 1: [sign * points for points in entry["columns"]["points"]]
                for entry in rounds if not entry.get("in_progress")}

    def dealt_codes(self) -> list[tuple[int, list[set[str]]]]:
        """Every deal of the game as (round, each seat's card codes as dealt)."""
        codes = self._codes
        return [(deal, [{codes(key) for key in hand} for hand in hands]) for deal, hands in self.dealt]

    def _codes(self, key: Hashable) -> str:
        known = self.known_codes
        if key not in known:
            known[key] = self.code(self.game, key)
        return known[key]

    def _cards(self, metrics: Metrics, winners: Sequence[int]) -> None:
        metrics.tracks_cards = True
        metrics.per_round = self.round_of is not None
        outcomes = self.deal_outcomes(winners)
        for deal, _ in self.dealt:
            for value in outcomes.get(deal, ()):
                metrics.outcome.add(value)
        add_card_effects(metrics, self.players, self.dealt_codes(), outcomes)
        if self.watch_hands:
            code = self._codes
            holding: dict[str, list[int]] = {}
            for seat in range(self.players):
                won = int(seat in winners)
                for card in {code(key) for key in self.seen[seat]}:
                    row = holding.setdefault(card, [0, 0, 0, 0])
                    row[0] += 1
                    row[1] += won
                played = self.plays[seat] if self.card_plays is not None else {code(key) for key in self.played[seat]}
                for card in played:
                    row = holding.setdefault(card, [0, 0, 0, 0])
                    row[2] += 1
                    row[3] += won
            for card in sorted(holding):
                if card not in metrics.holding:
                    metrics.holding[card] = GameSums(HOLDING_VARIABLES)
                metrics.holding[card].add(holding[card])


def add_card_effects(metrics: Metrics, players: int, dealt: Sequence[tuple[int, Sequence[set]]],
                     outcomes: dict[int, Sequence[float]]) -> None:
    """Fold one game's deals into the card effects: in each deal, for each card some seats were
    dealt and others not, the holders' mean outcome minus the others' (a contrast); per card,
    the game adds (its contrasts summed, in millionths; their number). Every seat is as likely
    to be dealt a card as any other, so with no effect a contrast averages zero, whatever the
    seats' own advantages; the game is the unit, so its deals count once together."""
    per_card: dict[str, list] = {}
    for deal, hands in dealt:
        outcome = outcomes.get(deal)
        if outcome is None:  # a round the game did not finish (a capped game)
            continue
        total = sum(outcome)
        holders: dict[str, list[int]] = {}
        for seat, hand in enumerate(hands):
            for card in hand:
                holders.setdefault(card, []).append(seat)
        for card, seats in holders.items():
            held = len(seats)
            if held == players:
                continue
            held_sum = sum(outcome[seat] for seat in seats)
            contrast = held_sum / held - (total - held_sum) / (players - held)
            row = per_card.setdefault(card, [0.0, 0])
            row[0] += contrast
            row[1] += 1
    for card in sorted(per_card):
        contrast, deals = per_card[card]
        if card not in metrics.effects:
            metrics.effects[card] = GameSums(EFFECT_VARIABLES)
        metrics.effects[card].add((round(contrast * MICRO), deals))


def beaten_share(focus: int, scores: Sequence[int], winners: Sequence[int], lower_wins: bool) -> float:
    """The share of the other seats the focus seat finished ahead of: a win against a non-winner
    counts 1, a loss to a winner 0, otherwise the scores decide and a tie counts ½."""
    sign = -1 if lower_wins else 1
    total = 0.0
    others = [seat for seat in range(len(scores)) if seat != focus]
    for seat in others:
        if (focus in winners) != (seat in winners):
            total += focus in winners
        else:
            mine, theirs = sign * scores[focus], sign * scores[seat]
            total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return total / len(others) if others else 0.0


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
