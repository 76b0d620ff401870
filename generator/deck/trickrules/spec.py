"""A trick-taking game's rules as read from a deck's `[rules]` table for one set of parameters:
plain frozen records, every reference resolved and checked (`generator.deck.trickrules.read`
builds them), that `generator.games.trick` plays. Expressions are kept as trees
(`generator.deck.trickrules.expr`); cards as selectors (`...selectors`)."""

from __future__ import annotations

from dataclasses import dataclass

from .selectors import Selector

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Mapping


@dataclass(frozen=True)
class Deal:
    hand: tuple  # expression: cards each in round `round`
    last_round_deals_all: bool  # the deck must divide by every player count (validate checks it)
    first_dealer: str  # "any" (chosen, by chance) | "high-card" (a draw, by chance) | "first-seat" (fixed)
    leftover: str  # "set-aside" | "first-trick" | "stock" (drawn from after each trick, the winner first)
    turned_in_stock: str  # where a card turned for trump lies in the stock: "top" (drawn first) | "bottom" (last)
    dealer_sits_out: tuple | None  # expression over players and round: the dealer sits this round out
    rotation: int  # who deals next: +1 the player on the dealer's left (clockwise), -1 on the right
    packets: tuple[tuple[int, ...], ...]  # by lap of the deal, the cards given at once to each seat in
    # turn (cycling), from the dealer's left; () deals one card at a time
    leftover_name: str
    leftover_key: str
    rule: str
    dealer_rule: str
    first_dealer_rule: str
    deck_rule: str


@dataclass(frozen=True)
class RoundSuit:
    name: str  # "Shun suit"
    key: str  # "shun"
    skip: tuple[int, ...]  # suit indices never revealed
    rule: str
    named: tuple[tuple[str, Selector], ...]  # cards the round suit decides, by a name of the deck's


@dataclass(frozen=True)
class Trump:
    kind: str  # "none" | "fixed" | "turn-up" | "dealer-card" | "highest-bidder" (named after the bids)
    suit: int  # for "fixed": a suit index; else -1
    no_trump: Selector  # turned cards that mean no trump
    dealer_chooses: Selector  # turned cards that let the dealer name trump
    may_name_none: bool  # whoever names trump may name no trump
    top: tuple[Selector, ...]  # cards that join the trump suit above its other cards, highest first
    rule: str
    choose_ruling: str


@dataclass(frozen=True)
class Role:
    cards: Selector
    among_equals: str  # "first" | "last"
    lead_rule: str
    lead_ruling: str


@dataclass(frozen=True)
class FirstLead:
    by: str  # "left-of-dealer" | "dealer" | "holder"
    card: int  # index into deck.cards for by = "holder", else -1
    otherwise: str  # "" | "lowest-of-suit"
    rule: str
    ruling: str


@dataclass(frozen=True)
class Restriction:
    field: str  # where it is written, e.g. "rules.play.restrict[1]"
    to: str  # "lead" | "follow" | "any"
    trick: str  # "first" | "later" | "any"
    cards: Selector
    names: tuple[str, ...]  # one for all of `cards`, or one per alternative
    until_broken: bool
    breaks: Selector
    rule: str
    ruling: str
    message: str
    explain: str


@dataclass(frozen=True)
class Play:
    first_lead: FirstLead
    must_trump: bool
    must_overtake: bool
    restrictions: tuple[Restriction, ...]
    lead_rule: str
    follow_rule: str
    follow_ruling: str
    void_ruling: str
    own_cards_rule: str
    winner_rule: str
    trump_rule: str


@dataclass(frozen=True)
class Passing:
    count: int
    directions: Mapping[int, tuple[str, ...]]  # by player count
    optional: bool
    rule: str
    ruling: str


@dataclass(frozen=True)
class Forbid:
    field: str
    id: str
    when: tuple  # expression: true for a forbidden bid
    rule: str
    ruling: str
    message: str  # the referee's
    why: str  # deckgen rule's


@dataclass(frozen=True)
class Bidding:
    low: tuple  # expressions
    high: tuple
    style: str  # "open" | "hidden" | "delayed"
    rule: str
    unrestricted_rule: str  # cited when no forbid entry is in force
    forbids: tuple[Forbid, ...]


@dataclass(frozen=True)
class CardPoints:
    cards: Selector
    points: int


@dataclass(frozen=True)
class Scoring:
    by: str  # "player" | "team"
    lets: tuple[tuple[str, tuple], ...]  # (name, expression), in order
    carries: tuple[tuple[str, tuple], ...]
    round: tuple
    rule: str
    selectors: tuple[Selector, ...]  # every caught('...') the expressions count, in order of first use


@dataclass(frozen=True)
class End:
    rounds: tuple | None  # expression over players and cards, or None
    target: int | None
    max_rounds: int | None
    winner: str  # "highest" | "lowest"
    tie_break: tuple | None
    rule: str


@dataclass(frozen=True)
class TrickRules:
    """The whole game, for one set of parameters."""

    min_players: int
    max_players: int
    round_name: str
    teams: str  # "none" | "partners"
    deal: Deal
    round_suit: RoundSuit | None
    trump: Trump
    always_wins: Role | None
    always_loses: Role | None
    any_time: Selector
    play: Play
    passing: Passing | None
    bidding: Bidding | None
    points: tuple[CardPoints, ...]
    scoring: Scoring
    end: End
    explain: Mapping[str, str]  # deckgen rule's wording by situation (defaults in generator.games.trick.questions)
    params: Mapping[str, object]  # the parameters these rules were read with

    @property
    def lower_score_wins(self) -> bool:
        return self.end.winner == "lowest"

