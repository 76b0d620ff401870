"""What is wrong with a deal of a trick-taking game, in words a table reads: hands of the
wrong size (each named with its size) and a card dealt more often than the deck has it
(where each copy lies, the cards set aside included). Shared by the Wizard engines."""

from __future__ import annotations

from typing import Sequence

from .base import IllegalAction
from .tricks import Deal, TrickState, cards_left


def check_hand_sizes(state: "TrickState", deal: Deal, size: int, reason: str, rule: str, where: dict) -> None:
    """Refuse a deal with the wrong number of hands, or hands of the wrong size, naming each
    wrong hand with its own size; `reason` says how many each player gets ("round 2 deals 2
    cards to each player")."""
    if len(deal.hands) != state.num_players:
        raise IllegalAction(f"{len(deal.hands)} hands dealt for {state.num_players} players", rule, where=where)
    wrong = [seat for seat, hand in enumerate(deal.hands) if len(hand) != size]
    if wrong:
        first, *others = wrong
        sizes = [f"{state.player_name(first)} is dealt {card_count(len(deal.hands[first]))}"]
        sizes += [f"{state.player_name(seat)} {len(deal.hands[seat])}" for seat in others]
        listed = sizes[0] if not others else ", ".join(sizes[:-1]) + " and " + sizes[-1]
        raise IllegalAction(f"{listed}: {reason}", rule, where={**where, "player": first})


def overdealt(state: "TrickState", hands: Sequence[Sequence[int]], aside: Sequence[int] = (),
              aside_name: str = "") -> str | None:
    """What is wrong with a deal that holds a card more often than the deck has it: where each
    copy lies, by hand and in the cards set aside (`aside_name`, given when the whole deck is
    dealt: then the card the deal misses is named too). None when no card is over-dealt."""
    table = state.table
    left = cards_left(table.copies, (*hands, aside))
    card = next((card for card, count in enumerate(left) if count < 0), None)
    if card is None:
        return None
    places = [f"{held} in {state.player_name(seat)}'s hand" for seat, hand in enumerate(hands)
              if (held := list(hand).count(card))]
    if card in aside:
        places.append(f"{list(aside).count(card)} in {aside_name}")
    copies = table.copies[card]
    message = f"{table.name[card]} is dealt {copies - left[card]} times, but the deck has {copies}: {', '.join(places)}"
    missing = next((card for card, count in enumerate(left) if count > 0), None)
    if aside_name and missing is not None:
        message += f"; {table.name[missing]} is missing from the deal"
    return message


def card_count(count: int) -> str:
    """"1 card", "3 cards"."""
    return f"{count} card" if count == 1 else f"{count} cards"
