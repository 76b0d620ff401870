"""Which cards a player may play, step by step, and the refusal of one they may not.

The steps, in order: the lead (any card, or the one card the first lead must be) or
following suit (the suit led if held, plus cards playable any time); must-trump and
must-overtake where the rules say so; then each restriction of `[[rules.play.restrict]]`. A
step that would leave no card is skipped, so a player always has a card to play. Each step
notes the cards it took away, so a refusal cites the rule of the step that excluded the card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base import IllegalAction
from ..tricks import NO_SUIT, distinct
from .actions import PASS
from .tables import FREE, OPEN

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any


@dataclass(slots=True)
class Options:
    """The distinct cards a seat may play (in the order a hand holds them), the rule (and
    ruling) that decided them, and what each step took away: (kind, restriction, cards)."""

    cards: list[int]
    rule: str
    ruling: str = ""
    steps: list[tuple[str, Any, frozenset[int]]] = field(default_factory=list)


def play_options(state, seat: int) -> Options:
    game = state.game
    play = game.rules.play
    hand = state.hands[seat]
    unique = state.table.unique
    trick = state.trick
    first = state.trick_number == 0
    if not trick:
        to = "lead"
        if first and state.info.first_card >= 0:
            options = Options([state.info.first_card], play.first_lead.rule)
            options.steps.append(("first-lead", None, frozenset(hand) - {state.info.first_card}))
        else:
            options = Options(distinct(hand, unique), play.lead_rule)
    else:
        to = "follow"
        options = Options(_following(state, seat), play.follow_rule)
        if len(options.cards) < len(set(hand)):
            options.steps.append(("follow", None, frozenset(hand) - set(options.cards)))
        elif play.must_trump and state.led >= 0 and state.trump != NO_SUIT:
            _narrow(options, "must-trump", None, [c for c in options.cards
                                                  if state.tables.suit[c] == state.trump or game.any_time[c]],
                    play.trump_rule)
        if play.must_overtake:
            beating = [c for c in options.cards if _claim(state, c) > _best(state)]
            if beating:
                _narrow(options, "must-overtake", None, [c for c in options.cards if c in beating or game.any_time[c]],
                        play.trump_rule)
    for index, restriction in enumerate(play.restrictions):
        if restriction.to not in (to, "any") or (restriction.trick == "first") != first and restriction.trick != "any":
            continue
        if restriction.until_broken and state.info.broken[index]:
            continue
        banned = state.tables.restricted[index]
        _narrow(options, "restrict", restriction, [c for c in options.cards if c not in banned], restriction.rule,
                restriction.ruling)
    return options


def _following(state, seat: int) -> list[int]:
    """The cards that follow the suit led, with those playable any time; the whole hand when
    the seat holds none of the suit (or no suit is set)."""
    held = state.by_suit[seat]
    led = state.led
    hand = state.hands[seat]
    if led >= 0 and held[led]:
        if state.game.suited_any_time:
            extra = [c for c in hand if state.game.any_time[c] and state.tables.suit[c] not in (led, NO_SUIT)]
            return list(dict.fromkeys(held[led] + held[FREE] + extra))
        return list(dict.fromkeys(held[led] + held[FREE]))
    return distinct(hand, state.table.unique)


def _narrow(options: Options, kind: str, restriction: Any, kept: list[int], rule: str, ruling: str = "") -> None:
    if kept and len(kept) < len(options.cards):
        options.steps.append((kind, restriction, frozenset(options.cards) - set(kept)))
        options.cards = kept
        options.rule = rule
        options.ruling = ruling


def _claim(state, card: int) -> int:
    """The card's claim on the trick were it played now."""
    led = state.led
    if led == NO_SUIT:
        led = state.tables.sets_led[card]
    return state.tables.claims[led][card]


def _best(state) -> int:
    led = state.led if state.led != NO_SUIT else NO_SUIT
    return max(state.tables.claims[led][card] for card in state.trick)


def refuse_card(state, seat: int, card: Any) -> None:
    """Raise the refusal of a card the seat may not play, naming the step that excludes it."""
    game = state.game
    play = game.rules.play
    table = state.table
    options = play_options(state, seat)
    legal = table.codes(sorted(options.cards))
    name = state.player_name(seat)
    if type(card) is not int or not 0 <= card < len(table.code):
        shown = game.format_action(state, card) if type(card) is int and card >= PASS - 1 else repr(card)
        raise IllegalAction(f"{name} is to play a card to trick {state.trick_number + 1}, not {shown}",
                            options.rule, legal, state.where(seat))
    if card not in state.hands[seat]:
        state.check_in_hand(seat, card, play.own_cards_rule)
    code = table.code[card]
    kind, restriction = next(((kind, restriction) for kind, restriction, taken in options.steps if card in taken),
                             ("follow", None))
    if kind == "first-lead":
        raise IllegalAction(f"{name} must lead {table.name[state.info.first_card]} to the first trick, not {code}",
                            play.first_lead.rule, legal, state.where(seat))
    if kind == "restrict":
        text = restriction.message or "{player} plays {card}, which the rules do not allow here while they hold other cards"
        index = game.rules.play.restrictions.index(restriction)
        called = state.tables.restricted_names[index].get(card, restriction.names[0])
        raise IllegalAction(_fill(text, player=name, card=code, name=called), restriction.rule, legal, state.where(seat),
                            ruling=restriction.ruling)
    if kind == "must-trump":
        raise IllegalAction(f"{name} plays {code}, but they cannot follow suit and hold a trump: they must play one",
                            play.trump_rule, legal, state.where(seat))
    if kind == "must-overtake":
        raise IllegalAction(f"{name} plays {code}, but they can beat the best card in the trick and must",
                            play.trump_rule, legal, state.where(seat))
    raise IllegalAction(f"{name} plays {code}, but {_how_led(state)}: they must follow suit", play.follow_rule, legal,
                        state.where(seat), ruling=play.follow_ruling)


def _how_led(state) -> str:
    table, trick = state.table, state.trick
    suit = state.game.deck.suits[state.led].name
    setter = next(card for card in trick if state.tables.sets_led[card] not in (NO_SUIT, OPEN))
    if setter == trick[0]:
        return f"{suit} was led and they hold {suit}"
    return (f"a {table.name[trick[0]]} was led and {table.code[setter]} set {suit} as the suit to follow "
            f"and they hold {suit}")


def _fill(template: str, **values: str) -> str:
    """A message of the deck's with {player}, {card}, {name} filled in; other braces stay as written."""
    for key, value in values.items():
        template = template.replace("{" + key + "}", value)
    return template
