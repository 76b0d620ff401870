"""Sampling the worlds a seat cannot tell apart (`GameState.determinize`), for the trick engines:
the unseen cards shared out among the hands and piles they may be in.
"""

from __future__ import annotations

from .tricks import random_below, shuffled

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Sequence

def deal_unseen(pool: Sequence[int], holders: Sequence[tuple[int, int]], suit_of: Sequence[int], rng) -> list[list[int]]:
    """Share out the cards a seat has not seen among the places they may be, for a search
    player's sampled world. `pool` is in a canonical order (sorted), so the result depends on
    the seat's information only; `holders` gives each place's size and the suits it has shown
    void in (one bit per suit; 0 for the stock or a set-aside pile). Cards go most constrained
    first, each to a place that may hold it, weighted by the room left there; a rare dead end
    starts again (the true deal shows a consistent one exists)."""
    sizes = [size for size, _ in holders]
    if sum(sizes) != len(pool):
        raise ValueError(f"{len(pool)} unseen cards for places holding {sum(sizes)}")
    suits = sorted(set(map(suit_of.__getitem__, pool)))
    allowed = {suit: [place for place, (_, voids) in enumerate(holders) if suit < 0 or not voids >> suit & 1]
               for suit in suits}
    for _ in range(DEAL_ATTEMPTS):
        # shuffled, then most constrained suits first (a stable sort keeps the shuffle within each)
        cards = sorted(shuffled(pool, rng), key=lambda card: len(allowed[suit_of[card]]))
        room = sizes[:]
        places: list[list[int]] = [[] for _ in holders]
        for card in cards:
            options = allowed[suit_of[card]]
            total = sum(room[place] for place in options)
            if not total:
                break
            point = random_below(rng, total)
            for place in options:
                point -= room[place]
                if point < 0:
                    break
            places[place].append(card)
            room[place] -= 1
        else:
            return places
    raise ValueError("no way to share the unseen cards that respects the voids shown")


DEAL_ATTEMPTS = 50  # fresh starts before giving up (never seen to need a second)
