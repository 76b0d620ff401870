"""A deck's composition: what `deckgen show` prints and `deckgen build` writes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from ..core.output import write_text
from .markup import to_plain
from .model import Deck


def composition(deck: Deck) -> dict:
    """The deck as plain data: every distinct card with its count, and totals by suit, rank and kind."""
    by_suit: Counter[str] = Counter()
    by_rank: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    for card in deck.cards:
        by_kind[card.kind] += card.count
        if card.suit:
            by_suit[card.suit] += card.count
        if card.rank:
            by_rank[card.rank] += card.count
    return {
        "id": deck.id,
        "name": deck.name,
        "version": deck.version,
        "players": {"min": deck.min_players, "max": deck.max_players},
        "engine": deck.engine,
        "card_size": {"name": deck.card_size.name, "width_mm": deck.card_size.width_mm,
                      "height_mm": deck.card_size.height_mm},
        "cards": [
            {
                "id": card.id,
                "name": card.name,
                "code": card.code,
                "count": card.count,
                "kind": card.kind,
                "type_line": card.type_line,
                "suit": card.suit,
                "rank": card.rank,
                "corner": card.corner,
                "text": to_plain(card.text, deck),
                "flavor": card.flavor,
            }
            for card in deck.cards
        ],
        "by_suit": {suit.id: by_suit[suit.id] for suit in deck.suits if by_suit[suit.id]},
        "by_rank": {rank.id: by_rank[rank.id] for rank in deck.ranks if by_rank[rank.id]},
        "by_kind": {kind.id: by_kind[kind.id] for kind in deck.kinds if by_kind[kind.id]},
        "distinct": len(deck.cards),
        "total": deck.total,
    }


def composition_text(deck: Deck) -> str:
    """A readable table of the deck's composition."""
    data = composition(deck)
    lines = [f"{deck.name} ({deck.id}), version {deck.version}: {data['total']} cards, "
             f"{data['distinct']} distinct, {deck.min_players}-{deck.max_players} players"]
    if data["by_suit"]:
        lines += ["", "By suit:"] + [f"  {deck.suit(s).symbol} {deck.suit(s).name:<12} {n:>4}"
                                     for s, n in data["by_suit"].items()]
    if data["by_rank"]:
        lines += ["", "By rank:"] + [f"  {deck.rank(r).name:<14} {n:>4}" for r, n in data["by_rank"].items()]
    lines += ["", "By kind:"] + [f"  {deck.kind(k).name:<14} {n:>4}" for k, n in data["by_kind"].items()]
    code_width = max(len(c["code"]) for c in data["cards"])
    name_width = min(40, max(len(c["name"]) for c in data["cards"]))
    lines += ["", f"  {'code':<{code_width}}  {'name':<{name_width}}  {'type':<22} count"]
    for card in data["cards"]:
        lines.append(f"  {card['code']:<{code_width}}  {card['name'][:40]:<{name_width}}  "
                     f"{card['type_line'][:22]:<22} {card['count']:>5}")
    lines += ["", f"  {'total':<{code_width + name_width + 26}} {data['total']:>5}"]
    return "\n".join(lines)


def write_summary(deck: Deck, out_dir: Path) -> list[Path]:
    """The build step: the deck's composition as JSON and as a readable table."""

    json_path = write_text(out_dir / "summary.json", json.dumps(composition(deck), indent=2, ensure_ascii=False) + "\n")
    text_path = write_text(out_dir / "summary.txt", composition_text(deck) + "\n")
    return [json_path, text_path]
