"""A playtest's counters: `Tally` folds the games of one (setting, player count, bot mix) into
counts that merge in any order, so any chunking, worker count or backend gives the same
figures; `Failure` is a game that could not be played to its end, kept with its seed.

For `--compare` a tally also keeps one whole number per game (`GameKey`: what the game came to,
packed), so two runs that share their seeds can be compared game by game: the only figure whose
memory grows with the number of games, 36 bytes a game and only when comparing."""
from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Sequence

from ..deck.model import Deck
from ..games.base import engine_class
from ..games.simulate import _distribution
from .figures import figures, rate
from .metrics import Metrics
from .stats import Z95, Family, histogram_bins, wilson

EXAMPLES = 3  # failing games kept per kind, lowest game numbers first


@dataclass(frozen=True)
class Failure:
    kind: str  # "setting", "engine error", "no legal action", "endless"
    index: int
    seed: int
    message: str


FAILURE_KINDS = ("setting", "engine error", "no legal action", "endless")
CAPPED = "capped"  # not a failure: an example of a game stopped by the length cap, kept to explain the stall


@dataclass(frozen=True)
class GameKey:
    """What one game came to, for pairing it with the same game (same seed) under other rules:
    a digest of the engine's summary of it, its moves, whether the length cap stopped it or it
    failed, and which seats won."""

    digest: int  # 32 bits
    moves: int
    capped: bool
    failed: bool
    winners: int  # bit s set: seat s won or shared the win

    MOVES_BITS = 40

    def pack(self) -> int:
        """The key as one whole number (what a tally keeps)."""
        return (self.digest | self.moves << 32 | self.capped << (32 + self.MOVES_BITS)
                | self.failed << (33 + self.MOVES_BITS) | self.winners << (34 + self.MOVES_BITS))

    @classmethod
    def unpack(cls, packed: int) -> "GameKey":
        """The key a whole number packs."""
        return cls(packed & 0xFFFFFFFF, packed >> 32 & ((1 << cls.MOVES_BITS) - 1), bool(packed >> (32 + cls.MOVES_BITS) & 1),
                   bool(packed >> (33 + cls.MOVES_BITS) & 1), packed >> (34 + cls.MOVES_BITS))

    def won(self, seat: int) -> bool:
        """Whether this seat won or shared the win."""
        return bool(self.winners >> seat & 1)


class Tally:
    """Counters over games of one (setting, player count): merge-able in any order."""

    def __init__(self, players: int, lower_score_wins: bool = False, tracks_cards: bool = False,
                 metrics: bool = False, keep_games: bool = False):
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
        self.metrics: Metrics | None = Metrics(players) if metrics else None
        # With keep_games: each chunk's first game index -> its games' packed `GameKey`s, in order.
        self.kept: dict[int, list[int]] | None = {} if keep_games else None

    def keep(self, chunk_start: int, key: GameKey) -> None:
        """Keep the key of the next game of the chunk that starts at game `chunk_start`."""
        if self.kept is not None:
            self.kept.setdefault(chunk_start, []).append(key.pack())

    def game_keys(self) -> list[GameKey]:
        """Every kept game's key, in game order."""
        return [GameKey.unpack(packed) for start in sorted(self.kept or {}) for packed in self.kept[start]]

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
        for played in plays:
            self.card_plays.update(played)

    def add_failure(self, failure: Failure, games: int = 1) -> None:
        self.failures[failure.kind] += games
        self.examples.append(failure)
        self._trim()

    def add_capped(self, index: int, seed: int) -> None:
        """Keep a game stopped by the length cap (the first few): `endings.stall_note` replays it."""
        self.examples.append(Failure(CAPPED, index, seed, ""))
        self._trim()

    def _trim(self) -> None:
        kept: list[Failure] = []
        for kind in (*FAILURE_KINDS, CAPPED):
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
                             (self.card_plays, other.card_plays), (self.card_games, other.card_games)):
            mine.update(theirs)
        if other.kept is not None:
            self.kept = {**(self.kept or {}), **other.kept}
        if other.metrics is not None:
            if self.metrics is None:
                self.metrics = Metrics(self.players)
            self.metrics.merge(other.metrics)

    def state(self) -> dict:
        """Every counter as plain sorted data (JSON): the checkpoint format, and equal for equal tallies."""
        counters = ("failures", "scores", "margins", "lengths", "lead_changes", "card_plays", "card_games")
        return {"players": self.players, "lower_score_wins": self.lower_score_wins,
                "tracks_cards": self.tracks_cards, "games": self.games, "capped": self.capped,
                "examples": [[f.kind, f.index, f.seed, f.message] for f in self.examples],
                "wins": self.wins, "outright": self.outright, "seat_score_sum": self.seat_score_sum,
                **{name: sorted(getattr(self, name).items()) for name in counters},
                "metrics": self.metrics.state() if self.metrics is not None else None,
                "kept": sorted(self.kept.items()) if self.kept is not None else None}

    @classmethod
    def from_state(cls, data: dict) -> "Tally":
        tally = cls(data["players"], data["lower_score_wins"], data["tracks_cards"])
        tally.games, tally.capped = data["games"], data["capped"]
        tally.examples = [Failure(*example) for example in data["examples"]]
        tally.wins, tally.outright, tally.seat_score_sum = data["wins"], data["outright"], data["seat_score_sum"]
        for name in ("failures", "card_plays", "card_games"):
            setattr(tally, name, Counter(dict(data[name])))
        for name in ("scores", "margins", "lengths", "lead_changes"):
            setattr(tally, name, Counter({int(k): v for k, v in data[name]}))
        tally.metrics = Metrics.from_state(data["metrics"]) if data["metrics"] is not None else None
        tally.kept = {int(start): keys for start, keys in data["kept"]} if data["kept"] is not None else None
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
        """Per card that can be played: times played, and the share of games in which anyone
        played it (Wilson interval; the game is the unit)."""
        by_rule = engine_class(deck).playtest.never_played
        return [{"code": card.code, "name": card.name, "plays": self.card_plays[card.code],
                 "games_share": rate(self.card_games[card.code], self.games)}
                for card in deck.cards if not by_rule(card)]

    def as_dict(self, deck: Deck, family: Family = Family(), cards: bool = True) -> dict:
        """Every figure of these games; card effects (when `cards`) tested at the report's level."""
        kept, key = _kept_figures, (id(self), id(deck), family, cards)
        if kept is not None and key in kept:
            return kept[key]
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
            data["metrics"] = figures(self, deck, family, cards)
        if kept is not None:
            kept[key] = data
        return data


# While a report is written (`figures_kept`): each tally's figures, asked for by the JSON, the
# HTML views and the summary alike, computed once. Tallies do not change while reported on.
_kept_figures: dict[tuple, dict] | None = None


@contextmanager
def figures_kept() -> Iterator[None]:
    """Within the block, each tally's figures are computed once (blocks may nest)."""
    global _kept_figures
    if _kept_figures is not None:
        yield
        return
    _kept_figures = {}
    try:
        yield
    finally:
        _kept_figures = None
