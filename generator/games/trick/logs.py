"""Game logs of a rules-engine game: `[[rounds]]` tables read into actions, and written back.

A round may hold, by what its rules have: `dealer` (and in round 1 `dealer_draw`, the cards
drawn for a high-card first dealer), the round suit by its key (and `<key>_reveal`, the
cards turned until it showed), `hands`, the leftover cards by their key, `turned`, `trump`,
`passes`, `bids` and `tricks`. docs/game-logs.md shows them.
"""

from __future__ import annotations

from ...core.errors import DeckgenError
from ..base import TERMINAL, IllegalAction
from ..logs import Entry, GameLog, LogStep, field_path
from ..deal_checks import card_count
from ..tricks import (NO_SUIT, ChooseSeat, Deal, cards_left, count_cards, log_played_card, read_dealer, read_hands,
                      read_tricks)
from .actions import BID, BIDDING, CHOOSE_TRUMP, NO_TRUMP, PASS, PASS_DONE, PASSING, TRUMP, RoundSuit, TurnUp

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Iterator, Sequence

NO_TRUMP_WORDS = ("none", "no trump", "no", "notrump", "no-trump")


def number_word(count: int) -> str:
    """A small count as a word ("four suits"), a larger one in figures."""
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
    return words[count] if 0 <= count < len(words) else str(count)


def log_keys(game) -> tuple[str, ...]:
    rules = game.rules
    keys = ["dealer", "hands", "tricks"]
    if rules.deal.first_dealer == "high-card":
        keys.append("dealer_draw")
    if rules.round_suit:
        keys += [rules.round_suit.key, f"{rules.round_suit.key}_reveal"]
    if rules.trump.kind in ("turn-up", "dealer-card"):
        keys.append("turned")
    if rules.trump.kind != "none":
        keys.append("trump")
    if rules.trump.kind != "turn-up" or game.stock:
        keys.append(rules.deal.leftover_key)
    if rules.passing:
        keys.append("passes")
    if rules.bidding:
        keys.append("bids")
    return tuple(keys)


def log_steps(game, log: GameLog, state) -> Iterator[LogStep]:
    rules, table = game.rules, game.table
    noun = rules.round_name
    entries = log.sections("rounds")
    for index, entry in enumerate(entries):
        last = index == len(entries) - 1
        entry.check_keys(log_keys(game))
        if state.phase == TERMINAL:
            raise IllegalAction(f"the game ended after {noun} {state.round + 1}, but the log goes on",
                                rules.end.rule, where={"round": index + 1, "field": entry.field})
        if entry.has("dealer_draw"):
            if index:
                raise log.error(entry.at("dealer_draw"), "only the first round has a draw for the first dealer")
            yield LogStep(ChooseSeat(first_dealer(game, log, entry)), entry.at("dealer_draw"))
        elif index == 0 and rules.deal.first_dealer == "first-seat":
            if entry.has("dealer") and log.seat(entry.get("dealer", str), entry.at("dealer")) != 0:
                raise IllegalAction(f"{log.players[0]}, the first player listed, deals first", rules.deal.first_dealer_rule,
                                    [f"dealer = {log.players[0]!r}"], where={"round": 1, "field": entry.at("dealer")})
        else:
            yield from read_dealer(log, entry, state, index, rules.deal.dealer_rule)
        if rules.round_suit:
            yield from _read_round_suit(game, log, entry, state)
        hands = read_hands(log, entry, table, state.num_players)
        key = rules.deal.leftover_key
        if hands is None:
            if entry.has(key):
                raise log.error(entry.at(key), f"{key} without the hands: write both, or neither")
            yield LogStep(None, entry.at("hands"))
        else:
            aside, field = (), entry.at("hands")
            if game.stock and not entry.has(key) and sum(map(len, hands)) < table.total:
                raise log.error(entry.at(key), f"the hands without {rules.deal.leftover_name}: list {key} too, top "
                                               "card first, for the cards drawn after each trick")
            if entry.has(key):
                codes = entry.get(key, list)
                aside = tuple(table.by_id[log.card(code, field_path(entry.at(key), i)).id] for i, code in enumerate(codes))
                left = cards_left(table.copies, (*hands, aside))
                if any(left[card] < 0 for card in aside):  # a card both dealt and set aside: blame the leftover
                    field = entry.at(key)
            yield LogStep(Deal(hands, aside), field)
        if rules.trump.kind != "highest-bidder":  # else trump is named after the bids
            yield from _read_trump(game, log, entry, state, last)
            if state.phase == CHOOSE_TRUMP:
                return
        if rules.passing:
            yield from _read_passes(game, log, entry, state, last)
            if state.phase == PASSING:
                return
        if rules.bidding:
            yield from _read_bids(log, entry, state, last)
            if state.phase == BIDDING:
                return
            if state.phase == CHOOSE_TRUMP:
                yield from _read_named_trump(game, log, entry, state, last)
                if state.phase == CHOOSE_TRUMP:
                    return
        first_rule = rules.play.first_lead.rule if rules.play.first_lead.by == "holder" else ""
        yield from read_tricks(log, entry, table, state, last, rules.play.lead_rule, first_rule)


def first_dealer(game, log: GameLog, entry: Entry) -> int:
    """Check round 1's `dealer_draw`: one card each, highest deals (an always-winning card high,
    an always-losing one low); tied players draw again, in the next table of the list."""
    table, field = game.table, entry.at("dealer_draw")
    rule = game.rules.deal.first_dealer_rule
    tables = game.round_tables[NO_SUIT, NO_SUIT]
    draws = entry.get("dealer_draw", (dict, list), what="dealer_draw (one card per player)")
    draws = [draws] if isinstance(draws, dict) else draws
    drawing = list(range(len(log.players)))
    for number, draw in enumerate(draws):
        where = field if isinstance(entry.data["dealer_draw"], dict) else field_path(field, number)
        log.check_type(draw, dict, where, "a draw (player name -> card code)")
        cards = {log.seat(name, field_path(where, name)): table.by_id[log.card(code, field_path(where, name)).id]
                 for name, code in draw.items()}
        if sorted(cards) != drawing:
            wanted = ", ".join(log.players[seat] for seat in drawing)
            what = "every player" if number == 0 else "the players tied in the draw before"
            raise IllegalAction(f"the draw for the first dealer is between {what}: {wanted}", rule,
                                [f"one card each for {wanted}"], where={"round": 1, "field": where})
        counts = count_cards(cards.values(), len(table.code))
        for card, count in enumerate(counts):
            if count > table.copies[card]:
                raise IllegalAction(f"{count} players drew {table.name[card]}; the deck has {table.copies[card]}",
                                    game.rules.deal.deck_rule, where={"round": 1, "field": where})
        value = {seat: 100_000 if card in tables.wins else -1 if card in tables.loses else table.rank[card]
                 for seat, card in cards.items()}
        best = max(value.values())
        drawing = [seat for seat in sorted(value) if value[seat] == best]
        if len(drawing) == 1 and number < len(draws) - 1:
            raise IllegalAction(f"{log.players[drawing[0]]} drew the highest card alone, so nobody draws again",
                                rule, [f"dealer = {log.players[drawing[0]]!r}"],
                                where={"round": 1, "field": field_path(field, number + 1)})
    if len(drawing) > 1:
        names = " and ".join(log.players[seat] for seat in drawing)
        raise IllegalAction(f"{names} tie for the highest card, so they draw again, but the log stops here",
                            rule, [f"another draw between {names}"], where={"round": 1, "field": field})
    seat = drawing[0]
    if entry.has("dealer"):
        named = log.seat(entry.get("dealer", str), entry.at("dealer"))
        if named != seat:
            raise IllegalAction(f"{log.players[named]} is named as dealer, but {log.players[seat]} drew the "
                                "highest card", rule, [f"dealer = {log.players[seat]!r}"],
                                where={"round": 1, "player": named, "field": entry.at("dealer")})
    return seat


def _suit(game, log: GameLog, name: str, field: str) -> int:
    suit = game.table.suit_from_text(name)
    if suit is None:
        raise log.error(field, f"unknown suit {name!r}; the deck has {', '.join(s.id for s in game.deck.suits)}")
    return suit


def _read_round_suit(game, log: GameLog, entry: Entry, state) -> Iterator[LogStep]:
    spec, suits = game.rules.round_suit, game.deck.suits
    key = spec.key
    name = entry.get(key, str, None)
    stated = None if name is None else _suit(game, log, name, entry.at(key))
    if entry.has(f"{key}_reveal"):
        revealed = _read_reveal(game, log, entry, state)
        if stated is not None and stated != revealed:
            raise IllegalAction(f"the log says the {spec.name} is {suits[stated].name}, but the reveal shows "
                                f"{suits[revealed].name}", spec.rule, [f"{key} = \"{suits[revealed].id}\""],
                                where={"round": state.round + 1, "field": entry.at(key)})
        stated = revealed
    field = entry.at(f"{key}_reveal") if entry.has(f"{key}_reveal") else entry.at(key)
    yield LogStep(None if stated is None else RoundSuit(stated), field)


def _read_reveal(game, log: GameLog, entry: Entry, state) -> int:
    """The cards the dealer turned, in order, until one showed a suit that is not skipped: every
    card before the last must be skipped, the last must not; returns the last card's suit."""
    spec, table = game.rules.round_suit, game.table
    field = entry.at(f"{spec.key}_reveal")
    codes = entry.get(f"{spec.key}_reveal", list, what=f"{spec.key}_reveal (the cards turned, in order)")
    if not codes:
        raise log.error(field, f"list the cards turned for the {spec.name}, the last one not skipped")
    cards = [table.by_id[log.card(code, field_path(field, i)).id] for i, code in enumerate(codes)]
    where = {"round": state.round + 1, "player": state.dealer}
    for i, card in enumerate(cards):
        if cards.index(card) != i and table.copies[card] < cards.count(card):
            raise IllegalAction(f"{table.code[card]} is turned twice in the reveal; the deck has "
                                f"{table.copies[card]}", game.rules.deal.deck_rule,
                                where={**where, "field": field_path(field, i)})
        skipped = table.suit[card] in spec.skip or table.suit[card] == NO_SUIT
        if skipped and i == len(cards) - 1:
            suit = table.suits[table.suit[card]].name if table.suit[card] != NO_SUIT else ""
            what = f"a {suit} card: {suit} is skipped" if suit else "a card without a suit, which names none"
            raise IllegalAction(f"the reveal ends on {table.code[card]}, {what} and the dealer turns again until a "
                                "card of another suit shows", spec.rule, ["another card turned after it"],
                                where={**where, "field": field_path(field, i)})
        if not skipped and i < len(cards) - 1:
            raise IllegalAction(f"{table.code[card]} already names the {spec.name} "
                                f"({game.deck.suits[table.suit[card]].name}); nothing more is turned", spec.rule,
                                [f"{spec.key}_reveal = {table.codes(cards[:i + 1])}"],
                                where={**where, "field": field_path(field, i + 1)})
    return table.suit[cards[-1]]


def _read_trump(game, log: GameLog, entry: Entry, state, last: bool) -> Iterator[LogStep]:
    rules, table, suits = game.rules, game.table, game.deck.suits
    noun = rules.round_name
    if state.chance == "turn" and state.phase < 0:
        code = entry.get("turned", str, None)
        yield LogStep(None if code is None else TurnUp(table.by_id[log.card(code, entry.at("turned")).id]),
                      entry.at("turned"))
    elif entry.has("turned") and entry.get("turned", str).casefold() not in ("none", ""):
        final = state.rounds_total is not None and state.round + 1 == state.rounds_total
        when = f"in the final {noun}" if final else f"this {noun}"
        raise IllegalAction(f"{when} every card is dealt, so no card is left to turn", rules.trump.rule,
                            ["turned = \"none\" (or leave it out)"],
                            where={"round": state.round + 1, "field": entry.at("turned")})
    if state.phase == CHOOSE_TRUMP:
        name = entry.get("trump", str, None)
        if name is None:
            if last and not entry.has("bids") and not entry.has("tricks") and not entry.has("passes"):
                return
            raise log.error(entry.at("trump"), f"a {table.name[state.info.turned]} was turned, so the dealer's trump "
                                               "choice is needed")
        if name.strip().casefold() in NO_TRUMP_WORDS and rules.trump.may_name_none:
            yield LogStep(NO_TRUMP, entry.at("trump"))
            return
        if name.strip().casefold() in NO_TRUMP_WORDS:
            raise IllegalAction(f"a {table.name[state.info.turned]} was turned, so {log.players[state.dealer]}, the dealer, "
                                f"must name one of the {number_word(len(suits))} suits as trump; \"no trump\" is not a "
                                "choice",
                                rules.trump.rule, [suit.name for suit in suits],
                                {**state.where(state.dealer), "field": entry.at("trump")}, ruling=rules.trump.choose_ruling)
        yield LogStep(TRUMP + _suit(game, log, name, entry.at("trump")), entry.at("trump"))
    elif entry.has("trump"):
        name = entry.get("trump", str)
        stated = NO_SUIT if name.casefold() in NO_TRUMP_WORDS else _suit(game, log, name, entry.at("trump"))
        if stated != state.trump:
            actual = "no trump" if state.trump == NO_SUIT else suits[state.trump].name
            why = "the turned card makes it" if rules.trump.kind != "fixed" else "the rules make it"
            raise IllegalAction(f"the log says trump is {name!r}, but {why} {actual}", rules.trump.rule,
                                [f"trump = \"{'none' if state.trump == NO_SUIT else suits[state.trump].id}\""],
                                where={"round": state.round + 1, "field": entry.at("trump")})


def _read_named_trump(game, log: GameLog, entry: Entry, state, last: bool) -> Iterator[LogStep]:
    """The trump the highest bidder names once the bids are in."""
    suits, chooser = game.deck.suits, log.players[state.turn]
    name = entry.get("trump", str, None)
    if name is None:
        if last and not entry.has("tricks"):
            return
        raise log.error(entry.at("trump"), f"{chooser} bid the most, so their choice of trump is needed")
    if name.strip().casefold() in NO_TRUMP_WORDS and game.rules.trump.may_name_none:
        yield LogStep(NO_TRUMP, entry.at("trump"))
        return
    if name.strip().casefold() in NO_TRUMP_WORDS:
        raise IllegalAction(f"{chooser} bid the most and must name one of the {number_word(len(suits))} suits as "
                            "trump; \"no trump\" is not a choice", game.rules.trump.rule, [suit.name for suit in suits],
                            {**state.where(state.turn), "field": entry.at("trump")}, ruling=game.rules.trump.choose_ruling)
    yield LogStep(TRUMP + _suit(game, log, name, entry.at("trump")), entry.at("trump"))


def _read_passes(game, log: GameLog, entry: Entry, state, last: bool) -> Iterator[LogStep]:
    passing = game.rules.passing
    passes = entry.table("passes", None)
    noun = game.rules.round_name
    if state.phase != PASSING:
        if passes is not None and passes.data:
            raise IllegalAction(f"{noun} {state.round + 1} is a hold {noun}: nobody passes", passing.rule,
                                [f"no passes on this {noun}"], where={"round": state.round + 1, "field": passes.field},
                                ruling=passing.ruling)
        return
    by_seat = {}
    for name, codes in (passes.data.items() if passes else ()):
        field = passes.at(name)
        log.check_type(codes, list, field, "the cards passed")
        by_seat[log.seat(name, field)] = (field, codes)
    n, count = state.num_players, passing.count
    open_end = last and not entry.has("tricks") and not entry.has("bids")  # the log may stop during the passes
    order = [(state.dealer + 1 + k) % n for k in range(n)]
    for k, seat in enumerate(order):
        if seat not in by_seat:
            if open_end and not any(later in by_seat for later in order[k:]):
                return  # the log stops here; the report says who still owes a pass
            raise log.error(passes.field if passes else entry.field,
                            f"no cards passed by {log.players[seat]} on this passing {noun}",
                            hint=f"write passes.{log.players[seat]} = [...] with {count} cards")
        field, codes = by_seat[seat]
        short_at_end = len(codes) < count and open_end and not any(later in by_seat for later in order[k + 1:])
        if len(codes) > count or len(codes) < count and not short_at_end and not passing.optional:
            raise IllegalAction(f"{log.players[seat]} passes {card_count(len(codes))}; every player passes {count} "
                                f"on a passing {noun}", passing.rule, [f"{count} cards from {log.players[seat]}'s hand"],
                                where={"round": state.round + 1, "player": seat, "field": field}, ruling=passing.ruling)
        for i, code in enumerate(codes):
            yield LogStep(PASS + game.table.by_id[log.card(code, f"{field}[{i}]").id], f"{field}[{i}]")
        if passing.optional and len(codes) < count and not short_at_end:
            yield LogStep(PASS_DONE, field)


def _read_bids(log: GameLog, entry: Entry, state, last: bool) -> Iterator[LogStep]:
    bids = entry.get("bids", (dict, list), None)
    field = entry.at("bids")
    n = state.num_players
    order = [(state.dealer + 1 + k) % n for k in range(n) if (state.dealer + 1 + k) % n != state.info.sitter]
    if isinstance(bids, list):  # in bidding order, from the dealer's left
        if len(bids) > len(order):
            raise log.error(field, f"{len(bids)} bids for {len(order)} players")
        written = [(f"{field}[{k}]", bid) for k, bid in enumerate(bids)]
    else:
        by_seat = {log.seat(name, field_path(field, name)): (field_path(field, name), bid)
                   for name, bid in (bids or {}).items()}
        if state.info.sitter in by_seat:
            raise log.error(by_seat[state.info.sitter][0], f"{log.players[state.info.sitter]} sits this "
                                                           f"{state.game.rules.round_name} out and does not bid")
        written = []
        for seat in order:
            if seat not in by_seat:
                break
            written.append(by_seat[seat])
        if len(written) < len(by_seat):
            missing = log.players[order[len(written)]]
            raise log.error(field, f"no bid for {missing}, who bids before the later bids listed")
    for where, bid in written:
        log.check_type(bid, int, where, "a bid")
        yield LogStep(BID + bid, where)
    if len(written) < len(order) and not (last and not entry.has("tricks")):
        missing = log.players[order[len(written)]]
        raise log.error(field if bids is not None else entry.field, f"no bid for {missing}",
                        hint="every player bids before the first card; only the last round of a log may stop early")


def log_body(game, players: Sequence[str], actions: Sequence[Any]) -> dict:
    """The `[[rounds]]` of a game played with these actions by these players."""
    table, rules = game.table, game.rules
    state = game.new_state(len(players))
    rounds: list[dict] = []
    current: dict[str, Any] = {}
    for action in actions:
        if isinstance(action, RoundSuit):
            current = {"dealer": players[state.dealer], rules.round_suit.key: game.deck.suits[action.suit].id}
            rounds.append(current)
        elif isinstance(action, Deal):
            if not rules.round_suit:
                current = {"dealer": players[state.dealer]}
                rounds.append(current)
            current["hands"] = {players[seat]: table.codes(table.sorted(action.hands[seat]))
                                for seat in range(len(players))}
            if action.aside and game.stock:  # in order: the top card is drawn first
                current[rules.deal.leftover_key] = table.codes(action.aside)
            elif action.aside and rules.trump.kind != "turn-up":
                current[rules.deal.leftover_key] = table.codes(table.sorted(action.aside))
        elif isinstance(action, TurnUp):
            current["turned"] = table.code[action.card]
        elif isinstance(action, int) and action == NO_TRUMP:
            current["trump"] = "none"
        elif isinstance(action, int) and action == PASS_DONE:
            current.setdefault("passes", {}).setdefault(players[state.turn], [])
        elif isinstance(action, int) and action >= PASS:
            current.setdefault("passes", {}).setdefault(players[state.turn], []).append(table.code[action - PASS])
        elif isinstance(action, int) and action >= TRUMP:
            current["trump"] = game.deck.suits[action - TRUMP].id
        elif isinstance(action, int) and action >= BID:
            current.setdefault("bids", {})[players[state.turn]] = action - BID
        elif isinstance(action, int):
            log_played_card(current, state, table.code[action])
        elif not isinstance(action, ChooseSeat):
            raise DeckgenError(f"{game.id}: cannot write {action!r} into a log")
        state.apply(action)
    return {"rounds": rounds}
