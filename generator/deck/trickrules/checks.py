"""Checks of a whole game read from `[rules]` against its deck, for every player count it
allows: that the deal fits the deck in every round, that every player count has its passing
directions, that no card has two roles that contradict each other, and so on. Each problem
names the field to change and what would fit."""

from __future__ import annotations

from ..model import Deck
from .compile import compile_expr
from .selectors import Selector, select
from .spec import TrickRules

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

MAX_DISTINCT_CARDS = 999  # a card is its index; bids, trumps and passes are numbered from 1000
MAX_CHECKED_ROUNDS = 1000  # rounds whose deal is checked, for a game without a fixed number


def check_game(rules: TrickRules, deck: Deck, problems: Any) -> None:
    """Add to `problems` (a `read.Problems`) what keeps these rules from being played with this deck."""
    low, high = rules.min_players, rules.max_players
    if deck.min_players < low or deck.max_players > high:
        problems.add("deck.players", f"the deck allows {deck.min_players}-{deck.max_players} players, but the "
                                     f"{deck.id} engine plays {low}-{high} ([rules] players)",
                     hint=f"set players = {{ min = {max(low, deck.min_players)}, max = {min(high, deck.max_players)} }}")
    if len(deck.cards) > MAX_DISTINCT_CARDS:
        problems.add("cards", f"the deck has {len(deck.cards)} different cards; the rules engine plays at most "
                              f"{MAX_DISTINCT_CARDS}")
    counts = range(low, high + 1)
    if rules.teams == "partners":
        odd = [n for n in counts if n % 2]
        if odd:
            problems.add("rules.teams", f"partners sit opposite each other, so the players must be even; "
                                        f"[rules] players allows {', '.join(map(str, odd))}",
                         hint="narrow [rules] players to even counts, e.g. { min = 4, max = 4 }")
    _check_roles(rules, deck, problems)
    for n in counts:
        _check_deal(rules, deck, n, problems)
    _check_top_trumps(rules, deck, problems)
    _check_sitting_out(rules, deck, counts, problems)
    _check_passing(rules, counts, problems)
    _check_first_lead(rules, deck, problems)
    _check_round_suit(rules, deck, problems)


def _cards(selector: Selector, deck: Deck) -> frozenset[int]:
    return select(selector, deck)


def _check_roles(rules: TrickRules, deck: Deck, problems: Any) -> None:
    roles = {"always_wins": rules.always_wins, "always_loses": rules.always_loses}
    chosen = {name: _cards(role.cards, deck) for name, role in roles.items() if role is not None}
    for name, cards in chosen.items():
        if not cards:
            problems.add(f"rules.cards.{name}.cards", f"{roles[name].cards.text!r} selects no card of the deck")
    both = chosen.get("always_wins", frozenset()) & chosen.get("always_loses", frozenset())
    if both:
        names = ", ".join(sorted(deck.cards[card].name for card in both))
        problems.add("rules.cards.always_loses.cards", f"{names} would both always win and always lose",
                     hint="give each card one role")
    if not rules.any_time.empty and not _cards(rules.any_time, deck):
        problems.add("rules.cards.any_time", f"{rules.any_time.text!r} selects no card of the deck")


def _rounds(rules: TrickRules, n: int, total: int) -> int | None:
    if rules.end.rounds is None:
        return None
    return compile_expr(rules.end.rounds, rules.params)({"players": n, "cards": total})


def playing(rules: TrickRules, n: int, number: int) -> int:
    """The players dealt in to round `number` with n at the table (the dealer may sit out)."""
    sits_out = rules.deal.dealer_sits_out
    return n - 1 if sits_out is not None and compile_expr(sits_out, rules.params)({"players": n, "round": number}) else n


def _check_sitting_out(rules: TrickRules, deck: Deck, counts: range, problems: Any) -> None:
    """What a dealer who sits out cannot do: be a partner, turn up their last card, lead, or pass."""
    if rules.deal.dealer_sits_out is None:
        return
    field = "rules.deal.dealer_sits_out"
    clashes = [("rules.teams", rules.teams == "partners", "partners would lose a player"),
               ("rules.trump.kind", rules.trump.kind == "dealer-card", "the dealer turns up their own last card"),
               ("rules.play.first_lead.by", rules.play.first_lead.by == "dealer", "the dealer leads the first trick"),
               ("rules.passing", rules.passing is not None, "the passing tables are by the players at the table")]
    for where, clash, why in clashes:
        if clash:
            problems.add(field, f"the dealer may not sit out here: {why} ({where})",
                         hint="leave dealer_sits_out out, or change the other rule")
    for n in counts:
        rounds = _rounds(rules, n, deck.total) or rules.end.max_rounds or 1
        if any(playing(rules, n, number) < 2 for number in range(1, min(rounds, MAX_CHECKED_ROUNDS) + 1)):
            problems.add(field, f"with {n} players and the dealer sitting out, fewer than two would play")
            return


def _check_deal(rules: TrickRules, deck: Deck, n: int, problems: Any) -> None:
    total = deck.total
    rounds = _rounds(rules, n, total)
    if rounds is not None and rounds < 1:
        problems.add("rules.end.rounds", f"with {n} players the game would have {rounds} rounds; it needs at least one")
        return
    hand = compile_expr(rules.deal.hand, rules.params)
    last = rounds if rounds is not None else min(rules.end.max_rounds or 1, MAX_CHECKED_ROUNDS)
    bidding = rules.bidding
    low = compile_expr(bidding.low, rules.params) if bidding else None
    high = compile_expr(bidding.high, rules.params) if bidding else None
    for number in range(1, last + 1):
        dealt = playing(rules, n, number)
        size = hand({"round": number, "players": n, "playing": dealt, "cards": total})
        if size < 1 or size * dealt > total:
            allowed = f"1 to {total // dealt}" if total >= dealt else "none: the deck is smaller than the table"
            who = f"{n} players" if dealt == n else f"{n} players ({dealt} dealt in)"
            problems.add("rules.deal.hand", f"round {number} with {who} deals {size} card(s) each, "
                                            f"{size * dealt} in all, from a deck of {total}; each hand may be {allowed}",
                         hint="change the hand sizes, the number of rounds, or [rules] players")
            return
        if rules.deal.leftover == "stock" and (total - size * dealt) % dealt:
            problems.add("rules.deal.leftover", f"round {number} with {n} players leaves a stock of {total - size * dealt} "
                                                f"card(s), which does not share out one card each after every trick",
                         hint="change the hand size so the cards left over divide by the players")
            return
        if rules.deal.packets and not _packets_fit(rules.deal.packets, dealt, size, number, problems):
            return
        if rules.passing is not None and rules.passing.count > size:
            problems.add("rules.passing.count", f"each player passes {rules.passing.count} cards, but round {number} "
                                                f"with {n} players deals only {size}")
            return
        if bidding is not None:
            names = {"hand": size, "round": number, "players": n, "playing": dealt}
            if low(names) > high(names):
                problems.add("rules.bidding.max", f"round {number} with {n} players allows bids from {low(names)} to "
                                                  f"{high(names)}: no bid at all")
                return


def _packet_sizes(packets: tuple[tuple[int, ...], ...], n: int) -> list[int]:
    """The cards each seat position (from the dealer's left) is given in all by these packets."""
    return [sum(lap[position % len(lap)] for lap in packets) for position in range(n)]


def _packets_fit(packets: tuple[tuple[int, ...], ...], n: int, size: int, number: int, problems: Any) -> bool:
    given = _packet_sizes(packets, n)
    wrong = next((position for position, count in enumerate(given) if count != size), None)
    if wrong is None:
        return True
    problems.add("rules.deal.packets", f"with {n} players the packets give the {_ordinal(wrong + 1)} seat from the "
                                       f"dealer's left {given[wrong]} card(s), but round {number} deals {size} each",
                 hint="the packets each seat gets must add up to its hand in every round and player count")
    return False


def _ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


def _check_top_trumps(rules: TrickRules, deck: Deck, problems: Any) -> None:
    """Cards above the trumps: each is some trump's card, none has a role that beats or loses to
    everything, and a pairing they read (suit:opposite-trump) exists for every suit that can be trump."""
    roles = set()
    for role in (rules.always_wins, rules.always_loses):
        if role is not None:
            roles |= _cards(role.cards, deck)
    suits = range(len(deck.suits)) if rules.trump.kind != "fixed" else (rules.trump.suit,)
    for index, selector in enumerate(rules.trump.top):
        field = f"rules.trump.top[{index}]"
        chosen = set().union(*(select(selector, deck, trump) for trump in suits))
        if not chosen:
            problems.add(field, f"{selector.text!r} selects no card whatever the trump")
        both = chosen & roles
        if both:
            problems.add(field, f"{', '.join(sorted(deck.cards[card].name for card in both))} already always win or "
                                "always lose, so it cannot rank among the trumps", hint="give each card one role")
        pairs = any(key == "suit" and value == "opposite-trump" for terms in selector.alternatives for key, value in terms)
        lonely = [deck.suits[suit].name for suit in suits if pairs and not deck.suits[suit].opposite]
        if lonely:
            problems.add(field, f"it reads the suit paired with trump, but {', '.join(lonely)} can be trump and has "
                                "no pair", hint="give every suit an opposite in [[suits]] (Euchre: hearts with "
                                                "diamonds, spades with clubs)")


def _check_passing(rules: TrickRules, counts: range, problems: Any) -> None:
    passing = rules.passing
    if passing is None:
        return
    for n in sorted(passing.directions):
        if n not in counts:
            problems.add(f'rules.passing.directions."{n}"', f"a passing table for {n} players, but the game is for "
                                                            f"{counts.start}-{counts.stop - 1}")
        elif "across" in passing.directions[n] and n % 2:
            problems.add(f'rules.passing.directions."{n}"', f"no seat is across the table with {n} players")
    missing = [n for n in counts if n not in passing.directions]
    if missing:
        problems.add("rules.passing.directions", f"no passing directions for {', '.join(map(str, missing))} players",
                     hint='add e.g. "4" = ["left", "right", "across", "hold"]')


def _check_first_lead(rules: TrickRules, deck: Deck, problems: Any) -> None:
    lead = rules.play.first_lead
    if lead.by != "holder" or lead.card < 0:
        return
    card = deck.cards[lead.card]
    if lead.otherwise == "lowest-of-suit" and not card.suit:
        problems.add("rules.play.first_lead.otherwise", f"{card.name} has no suit, so there is no lowest card of its suit")


def _check_round_suit(rules: TrickRules, deck: Deck, problems: Any) -> None:
    if rules.round_suit is None:
        return
    uses_opposite = any(value == "opposite-round" for selector in _selectors(rules)
                        for terms in selector.alternatives for key, value in terms)
    if not uses_opposite:
        return
    lonely = [suit.name for index, suit in enumerate(deck.suits)
              if index not in rules.round_suit.skip and not suit.opposite]
    if lonely:
        problems.add("rules.round_suit.skip", f"the rules read the suit opposite the {rules.round_suit.name}, "
                                              f"but {', '.join(lonely)} can be revealed and has no opposite",
                     hint="skip those suits, or give them an opposite in [[suits]]")


def _selectors(rules: TrickRules) -> list[Selector]:
    found = [points.cards for points in rules.points] + list(rules.scoring.selectors)
    for restriction in rules.play.restrictions:
        found += [restriction.cards, restriction.breaks]
    return found
