"""A playtest's counters: `Tally` folds the games of one (setting, player count, bot mix) into
counts that merge in any order, so any chunking, worker count or backend gives the same
figures; `Failure` is a game that could not be played to its end, kept with its seed."""
from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Sequence

from ..deck.model import Deck
from ..games.simulate import _distribution
from .figures import figures
from .metrics import Metrics
from .profiles import PROFILES
from .stats import Z95, histogram_bins, wilson

EXAMPLES = 3  # failing games kept per kind, lowest game numbers first


@dataclass(frozen=True)
class Failure:
    kind: str  # "setting", "engine error", "no legal action", "endless"
    index: int
    seed: int
    message: str


FAILURE_KINDS = ("setting", "engine error", "no legal action", "endless")


class Tally:
    """Counters over games of one (setting, player count): merge-able in any order."""

    def __init__(self, players: int, lower_score_wins: bool = False, tracks_cards: bool = False,
                 metrics: bool = False):
        self.players = players
        self.lower_score_wins = lower_score_wins
        self.tracks_cards = tracks_cards
        self.games = 0  # games that finished or were capped (failures are counted apart)
        self.capped = 0
        self.failures: Counter[str] = Counter()
        self.examples: list[Failure] = []
        self.wins = [0] * players  # won or shared the win
        self.outright = [0] * players
        self.seat_score_sum = [0] * players
        self.scores: Counter[int] = Counter()
        self.margins: Counter[int] = Counter()
        self.lengths: Counter[int] = Counter()  # player decisions per game
        self.lead_changes: Counter[int] = Counter()
        self.card_plays: Counter[str] = Counter()  # times played, all games
        self.card_games: Counter[str] = Counter()  # games in which anyone played it
        self.card_seat_games: Counter[str] = Counter()  # (seat, game) pairs where the seat played it
        self.card_seat_wins: Counter[str] = Counter()  # ... and that seat won
        self.metrics: Metrics | None = Metrics(players) if metrics else None

    def add_game(self, scores: Sequence[int], winners: Sequence[int], reason: str, decisions: int,
                 lead_changes: int, plays: Sequence[Counter[str]]) -> None:
        self.games += 1
        if reason != "finished":
            self.capped += 1
        for seat in winners:
            self.wins[seat] += 1
        if len(winners) == 1:
            self.outright[winners[0]] += 1
        for seat, score in enumerate(scores):
            self.seat_score_sum[seat] += score
            self.scores[score] += 1
        best = [scores[s] for s in winners]
        rest = [score for seat, score in enumerate(scores) if seat not in winners]
        if best and rest:
            self.margins[abs(best[0] - (min(rest) if self.lower_score_wins else max(rest)))] += 1
        elif best:
            self.margins[0] += 1
        self.lengths[decisions] += 1
        self.lead_changes[lead_changes] += 1
        self.card_games.update({code for played in plays for code in played})
        for seat, played in enumerate(plays):
            for code, times in played.items():
                self.card_plays[code] += times
                self.card_seat_games[code] += 1
                if seat in winners:
                    self.card_seat_wins[code] += 1

    def add_failure(self, failure: Failure, games: int = 1) -> None:
        self.failures[failure.kind] += games
        self.examples.append(failure)
        self._trim()

    def _trim(self) -> None:
        kept: list[Failure] = []
        for kind in FAILURE_KINDS:
            kept += sorted((f for f in self.examples if f.kind == kind), key=lambda f: f.index)[:EXAMPLES]
        self.examples = kept

    def merge(self, other: "Tally") -> None:
        self.tracks_cards = self.tracks_cards or other.tracks_cards
        self.games += other.games
        self.capped += other.capped
        self.failures.update(other.failures)
        self.examples += other.examples
        self._trim()
        for seat in range(self.players):
            self.wins[seat] += other.wins[seat]
            self.outright[seat] += other.outright[seat]
            self.seat_score_sum[seat] += other.seat_score_sum[seat]
        for mine, theirs in ((self.scores, other.scores), (self.margins, other.margins),
                             (self.lengths, other.lengths), (self.lead_changes, other.lead_changes),
                             (self.card_plays, other.card_plays), (self.card_games, other.card_games),
                             (self.card_seat_games, other.card_seat_games),
                             (self.card_seat_wins, other.card_seat_wins)):
            mine.update(theirs)
        if other.metrics is not None:
            if self.metrics is None:
                self.metrics = Metrics(self.players)
            self.metrics.merge(other.metrics)

    def state(self) -> dict:
        """Every counter as plain sorted data (JSON): the checkpoint format, and equal for equal tallies."""
        counters = ("failures", "scores", "margins", "lengths", "lead_changes", "card_plays", "card_games",
                    "card_seat_games", "card_seat_wins")
        return {"players": self.players, "lower_score_wins": self.lower_score_wins,
                "tracks_cards": self.tracks_cards, "games": self.games, "capped": self.capped,
                "examples": [[f.kind, f.index, f.seed, f.message] for f in self.examples],
                "wins": self.wins, "outright": self.outright, "seat_score_sum": self.seat_score_sum,
                **{name: sorted(getattr(self, name).items()) for name in counters},
                "metrics": self.metrics.state() if self.metrics is not None else None}

    @classmethod
    def from_state(cls, data: dict) -> "Tally":
        tally = cls(data["players"], data["lower_score_wins"], data["tracks_cards"])
        tally.games, tally.capped = data["games"], data["capped"]
        tally.examples = [Failure(*example) for example in data["examples"]]
        tally.wins, tally.outright, tally.seat_score_sum = data["wins"], data["outright"], data["seat_score_sum"]
        for name in ("failures", "card_plays", "card_games", "card_seat_games", "card_seat_wins"):
            setattr(tally, name, Counter(dict(data[name])))
        for name in ("scores", "margins", "lengths", "lead_changes"):
            setattr(tally, name, Counter({int(k): v for k, v in data[name]}))
        tally.metrics = Metrics.from_state(data["metrics"]) if data["metrics"] is not None else None
        return tally

    @property
    def played(self) -> int:
        return self.games + sum(self.failures.values())

    def seat_rows(self, z: float = Z95) -> list[dict]:
        """Wins by seat with Wilson intervals at `z` (95% by default)."""
        rows = []
        for seat in range(self.players):
            low, high = wilson(self.wins[seat], self.games, z)
            rows.append({"seat": seat + 1, "wins": self.wins[seat], "outright": self.outright[seat],
                         "win_rate": round(self.wins[seat] / self.games, 4) if self.games else None,
                         "low": round(low, 4), "high": round(high, 4),
                         "mean_score": round(self.seat_score_sum[seat] / self.games, 2) if self.games else None})
        return rows

    def fair_share(self) -> float:
        """The win rate every seat would have in a fair game: all wins (shared ones counted per
        winner) spread evenly over the seats."""
        return sum(self.wins) / (self.games * self.players) if self.games else 0.0

    def card_rows(self, deck: Deck) -> list[dict]:
        """Per card that can be played: how often, in what share of games, and how the win rate
        of the seat that played it compares with the average seat's (`lift`)."""
        seat_games = self.games * self.players
        base = sum(self.wins) / seat_games if seat_games else 0.0
        by_rule = PROFILES[deck.engine].never_played
        rows = []
        for card in deck.cards:
            if by_rule(card):
                continue
            played_in = self.card_seat_games[card.code]
            rate = self.card_seat_wins[card.code] / played_in if played_in else None
            rows.append({"code": card.code, "name": card.name, "plays": self.card_plays[card.code],
                         "games_share": round(self.card_games[card.code] / self.games, 4) if self.games else 0.0,
                         "win_rate_when_played": round(rate, 4) if rate is not None else None,
                         "lift": round(rate - base, 4) if rate is not None else None})
        return rows

    def as_dict(self, deck: Deck) -> dict:
        kept = _kept_figures
        if kept is not None and (id(self), id(deck)) in kept:
            return kept[id(self), id(deck)]
        data = {
            "games": self.played, "completed": self.games, "capped": self.capped,
            "failures": dict(sorted(self.failures.items())),
            "examples": [{"kind": f.kind, "game": f.index + 1, "seed": f.seed, "message": f.message}
                         for f in self.examples],
            "seats": self.seat_rows(), "fair_share": round(self.fair_share(), 4),
            "scores": _distribution(self.scores), "winning_margin": _distribution(self.margins),
            "length": _distribution(self.lengths),
            "length_histogram": histogram_bins(self.lengths),
            "lead_changes": _distribution(self.lead_changes),
        }
        if self.tracks_cards:
            data["cards"] = self.card_rows(deck)
        if self.metrics is not None and self.games:
            data["metrics"] = figures(self, deck)
        if kept is not None:
            kept[id(self), id(deck)] = data
        return data


# While a report is written (`figures_kept`): each tally's figures, asked for by the JSON, the
# HTML views and the summary alike, computed once. Tallies do not change while reported on.
_kept_figures: dict[tuple[int, int], dict] | None = None


@contextmanager
def figures_kept() -> Iterator[None]:
    global _kept_figures
    _kept_figures = {}
    try:
        yield
    finally:
        _kept_figures = None
