"""Questions at the table for a rules-engine game (`deckgen rule DECK ...`), answered by the
same card tables and option steps the games are played by:

    [trick] [trump S | no trump] [<round suit key> S] [lead NAME] CARD ...   who wins, for how many points
    play CARD hand CARD ... [trick CARD ...] [trump S] [<key> S] [first] [broken]   may this card be played
    bid N round R [after B ...] [scores S ...] [players P]                   is this bid allowed
"""

from __future__ import annotations

from types import SimpleNamespace

from ...core.errors import DeckgenError
from ...deck.trickrules.selectors import Selector, select
from ..tricks import (NO_SUIT, parse_play_question, parse_trick_question, play_answer, words)
from ...deck.trickrules.compile import compile_expr
from .bidding import fill
from .moves import play_options
from .tables import OPEN, TRUMP_CLAIM, WIN, winner_position

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Sequence


def ask(game, question: Sequence[str]) -> dict:
    tokens = words(question)
    if tokens and tokens[0].casefold() == "bid":
        if game.bidding is None:
            raise DeckgenError(f"{game.id} has no bidding")
        return bid_question(game, tokens[1:])
    if tokens and tokens[0].casefold() == "play":
        return play_question(game, tokens)
    return trick_question(game, question)


def _settings(game) -> tuple[str, ...]:
    names = ("trump",) if game.rules.trump.kind != "none" else ()
    return names + ((game.rules.round_suit.key,) if game.rules.round_suit else ())


def _suits(game, settings: dict) -> tuple[int, int]:
    """The trump and round suit a question names (fixed trump by default)."""
    table, rules = game.table, game.rules
    trump = rules.trump.suit if rules.trump.kind == "fixed" else NO_SUIT
    word = settings.get("trump")
    if word is not None:
        trump = NO_SUIT if word.casefold() == "none" else table.suit_from_text(word)
        if trump is None:
            raise DeckgenError(f"unknown trump suit {word!r}; say one of "
                               f"{', '.join(s.name for s in game.deck.suits)} or `no trump`")
    round_suit = NO_SUIT
    if rules.round_suit:
        word = settings.get(rules.round_suit.key)
        if word is not None:
            round_suit = table.suit_from_text(word)
            if round_suit is None or round_suit in rules.round_suit.skip:
                allowed = [s.name for i, s in enumerate(game.deck.suits) if i not in rules.round_suit.skip]
                raise DeckgenError(f"the {rules.round_suit.name} must be one of {', '.join(allowed)}")
    return trump, round_suit


def _led(tables, cards: list[int]) -> int:
    for card in cards:
        led = tables.sets_led[card]
        if led != NO_SUIT:
            return led
    return NO_SUIT


# How answers are worded where a deck's [rules.explain] does not say: {card} the card that
# decides, {suit} the suit, {first} "first" or "last", {wins}/{loses} the names of the cards that
# always win/lose, {how} how the suit to follow was set, {also} the cards playable any time.
EXPLAIN = {
    "always_wins": "it is the {first} {card} played to the trick",
    "always_loses": "every card in the trick is a {card}, so the {first} {card} takes it",
    "trump": "it is the highest trump ({suit})",
    "led": "{card} is the highest {suit} card in the trick; other suits never win",
    "lead": "the leader may lead any card",
    "first_lead": "whoever holds {card} leads it to the first trick",
    "first_lead_otherwise": "without {card}, the lowest {suit} card in play leads (taking it that {lowest} is the lowest)",
    "open": "a {card} set this trick, so nobody has to follow suit",
    "no_suit": "only {card}s have been played, so no suit is set yet",
    "follow": "{how} and the hand holds {suit}: follow suit{also}",
    "void": "{suit} is the suit to follow and the hand holds none, so any card goes",
}


def _words(game, key: str, **values: str) -> str:
    """An answer in the deck's words ([rules.explain]) or the default's, its {names} filled in."""
    rules = game.rules
    template = rules.explain.get(key)
    if template is None:
        template = EXPLAIN[key]
        if key == "trump" and rules.always_wins:
            template = "no {wins} was played, and it is the highest trump ({suit})"
        elif key == "led" and rules.trump.kind != "none":
            template = ("no {wins} or trump was played, and it is the highest card of the suit led ({suit})"
                        if rules.always_wins else "no trump was played, and it is the highest card of the suit led ({suit})")
    return fill(template, values)


def _role_name(game, role) -> str:
    """What the cards of a role are called: their name when they share one."""
    if role is None:
        return ""
    names = {game.table.name[card] for card in select(role.cards, game.deck)}
    return names.pop() if len(names) == 1 else "card of that kind"


def _named_cards(game, round_suit: int) -> dict[str, str]:
    """The cards the round suit decides ([rules.round_suit] cards), by their names, as codes."""
    spec = game.rules.round_suit
    if spec is None or round_suit == NO_SUIT:
        return {}
    return {name: ", ".join(game.table.code[card] for card in sorted(select(selector, game.deck, NO_SUIT, round_suit)))
            for name, selector in spec.named}


def trick_question(game, question: Sequence[str]) -> dict:
    table, rules = game.table, game.rules
    asked = parse_trick_question(question, table, _settings(game))
    trump, round_suit = _suits(game, asked.settings)
    tables = game.round_tables[trump, round_suit]
    cards = [card for _, card in asked.cards]
    led = _led(tables, cards)
    claims = tuple(tables.claims[led][card] for card in cards)
    winner = winner_position(claims, tables.last_wins)
    card, claim = cards[winner], claims[winner]
    who = asked.player(winner)
    cited, rulings = [rules.play.winner_rule], []
    suits = game.deck.suits
    names = {"card": table.name[card], "wins": _role_name(game, rules.always_wins)}
    if claim == WIN:
        reason = _words(game, "always_wins", first=rules.always_wins.among_equals, **names)
        if winner == 0 and rules.always_wins.lead_rule:
            cited.append(rules.always_wins.lead_rule)
        elif winner and all(c in tables.loses for c in cards[:winner]) and rules.always_loses:
            cited += [rules.always_loses.lead_rule] if rules.always_loses.lead_rule else []
            rulings += [rules.always_loses.lead_ruling] if rules.always_loses.lead_ruling else []
    elif card in tables.loses:
        reason = _words(game, "always_loses", first=rules.always_loses.among_equals, **names)
    elif claim >= TRUMP_CLAIM:
        reason = _words(game, "trump", suit=suits[trump].name, **names)
    else:
        reason = _words(game, "led", suit=suits[led].name, **names)
        if cards[0] in tables.loses and rules.always_loses and rules.always_loses.lead_rule:
            cited.append(rules.always_loses.lead_rule)
    result = {"question": "trick"}
    answer = f"{who[0].upper()}{who[1:]} wins with {table.name[card]} ({table.code[card]}, card {winner + 1} of {len(cards)}"
    if rules.trump.kind != "none":
        result["trump"] = None if trump == NO_SUIT else suits[trump].id
        answer += ", no trump" if trump == NO_SUIT else f", trump {suits[trump].name}"
    result.update(cards=[{"player": asked.player(i), "card": table.code[c]} for i, c in enumerate(cards)],
                  winner={"position": winner + 1, "player": who, "card": table.code[card]})
    answer += ")."
    if game.has_points and (round_suit != NO_SUIT or not rules.round_suit):
        points = tables.points
        total = sum(points[c] for c in cards)
        parts = [f"{table.code[c]} {points[c]:+d}" for c in cards if points[c]]
        setting = f" With {suits[round_suit].name} as the {rules.round_suit.name}" if rules.round_suit else ""
        answer += f"{setting} the trick is worth {total:+d} points" + (f" ({', '.join(parts)})." if parts else ".")
        cited.append(rules.scoring.rule)
        if rules.round_suit:
            result[rules.round_suit.key] = suits[round_suit].id
        result["points"] = total
        result.update(_named_cards(game, round_suit))
    result.update(answer=answer, reasons=[reason], rules=cited, rulings=rulings)
    return result


def play_question(game, tokens: list[str]) -> dict:
    """May this card be played: the option steps of a real game, at a table set up from the question."""
    table, rules = game.table, game.rules
    asked = parse_play_question(tokens, table, _settings(game), ("first", "broken"), rules.play.own_cards_rule)
    trump, round_suit = _suits(game, asked.settings)
    if len(asked.trick) >= game.max_players:
        raise DeckgenError(f"a trick has at most {game.max_players} cards before yours")
    first = "first" in asked.flags
    to = "follow" if asked.trick else "lead"
    binding = [r for r in rules.play.restrictions if r.to in (to, "any") and r.trick in ("any", "first" if first else "later")
               and not (r.until_broken and "broken" in asked.flags)]
    if rules.round_suit and round_suit == NO_SUIT and any(r.cards.dynamic for r in binding):
        raise DeckgenError(f"the {rules.round_suit.name} matters here: add `{rules.round_suit.key} SUIT`")
    tables = game.round_tables[trump, round_suit]
    hand = list(asked.hand)
    first_card, instead = -1, False
    if first and not asked.trick and rules.play.first_lead.by == "holder":
        first_card = rules.play.first_lead.card
        if first_card not in hand:
            suit = table.suit[first_card]
            own = [card for card in hand if table.suit[card] == suit]
            if not own or rules.play.first_lead.otherwise != "lowest-of-suit":
                raise DeckgenError(f"the first trick is led by whoever holds {table.name[first_card]}; this hand "
                                   "does not hold it")
            first_card, instead = min(own, key=table.rank.__getitem__), True  # taking it that it is the lowest in play
    by_suit = [[] for _ in range(game.num_suits + 2)]
    for card in hand:
        by_suit[tables.bucket[card]].append(card)
    seat = SimpleNamespace(
        game=game, table=table, hands=[hand], by_suit=[by_suit], trick=list(asked.trick),
        trick_number=0 if first else 1, led=_led(tables, asked.trick), trump=trump, tables=tables,
        info=SimpleNamespace(first_card=first_card, broken=[("broken" in asked.flags) for _ in rules.play.restrictions]))
    options = play_options(seat, 0)
    cited, reason, rulings = _explain(game, seat, options, round_suit, instead)
    return play_answer(table, asked, options.cards, cited, reason, [r for r in rulings if r])


def _explain(game, seat, options, round_suit: int, instead: bool) -> tuple[list[str], str, list[str]]:
    """The rules that decide what may be played here, why in the deck's words, and the rulings cited."""
    rules, table = game.rules, game.table
    play = rules.play
    narrowed = [restriction for kind, restriction, _ in options.steps if kind == "restrict"]
    if not seat.trick:
        first = seat.info.first_card
        if first >= 0 and instead:
            lead = play.first_lead.card
            reason = _words(game, "first_lead_otherwise", card=table.name[lead], lowest=table.code[first],
                            suit=game.deck.suits[table.suit[lead]].name)
            return [play.first_lead.rule], reason, [play.first_lead.ruling]
        if first >= 0:
            return [play.first_lead.rule], _words(game, "first_lead", card=table.name[first]), []
        if narrowed:
            restriction = narrowed[-1]
            reason = fill(restriction.explain or "{name} may not be led here while the hand holds other cards",
                          {"name": restriction.names[0], **_named_cards(game, round_suit)})
            return [restriction.rule], reason, [restriction.ruling]
        return [play.lead_rule], _words(game, "lead"), []
    setter = next((card for card in seat.trick if seat.tables.sets_led[card] != NO_SUIT), None)
    if seat.led == OPEN:
        rule = rules.always_wins.lead_rule or play.follow_rule
        return [rule], _words(game, "open", card=table.name[setter]), []
    if seat.led == NO_SUIT:
        rule = rules.always_loses.lead_rule if rules.always_loses and rules.always_loses.lead_rule else play.follow_rule
        return [rule], _words(game, "no_suit", card=table.name[seat.trick[0]]), []
    suit = game.deck.suits[seat.led].name
    after_null = setter != seat.trick[0] and rules.always_loses and rules.always_loses.lead_rule
    base = [play.follow_rule] + ([rules.always_loses.lead_rule] if after_null else [])
    rulings = []
    if not seat.by_suit[0][seat.led]:
        reason = _words(game, "void", suit=suit)
        rulings.append(play.void_ruling)
    else:
        how = f"a {table.name[seat.trick[0]]} was led and {table.code[setter]} set {suit}" if after_null else f"{suit} was led"
        free = [table.name[card] for card in _in_selector_order(game, rules.any_time)]
        also = f", or play a {' or '.join(dict.fromkeys(free))}" if free else ""
        reason = _words(game, "follow", how=how, suit=suit, also=also)
    if narrowed:
        restriction = narrowed[-1]
        text = restriction.explain or "{reason}, but not {name} here"
        reason = fill(text, {"reason": reason, "name": restriction.names[0], **_named_cards(game, round_suit)})
        return [restriction.rule] + base, reason, [r.ruling for r in narrowed]
    return base, reason, rulings


def _in_selector_order(game, selector) -> list[int]:
    """The cards a selector chooses, alternative by alternative."""
    found: list[int] = []
    for terms in selector.alternatives:
        found += sorted(select(Selector((terms,), ""), game.deck))
    return found


def bid_question(game, tokens: list[str]) -> dict:
    usage = "usage: bid N round R [after B B ...] [scores S S ...] [players P]"
    if not tokens or not tokens[0].lstrip("-").isdigit():
        raise DeckgenError(usage)
    bid, rest = int(tokens[0]), tokens[1:]
    round_number = players = None
    earlier: list[int] = []
    scores: list[int] | None = None
    position = 0
    while position < len(rest):
        word = rest[position].casefold().lstrip("-")
        following = rest[position + 1] if position + 1 < len(rest) else ""
        if word in ("round", "cards", "players") and following.isdigit():
            players, round_number = (int(following), round_number) if word == "players" else (players, int(following))
            position += 2
        elif word in ("after", "bids"):
            position += 1
            while position < len(rest) and rest[position].isdigit():
                earlier.append(int(rest[position]))
                position += 1
        elif word in ("scores", "score", "totals"):
            position += 1
            scores = []
            while position < len(rest) and rest[position].lstrip("-").isdigit():
                scores.append(int(rest[position]))
                position += 1
        elif word in ("leading", "leader", "ahead", "not"):
            raise DeckgenError("give the score sheet instead of saying who leads: `scores S S ...`, the totals "
                               "before this round in bidding order, the bidder's last; " + usage)
        else:
            raise DeckgenError(f"cannot read {rest[position]!r}; {usage}")
    if round_number is None:
        raise DeckgenError(f"say which round (how many cards each): {usage}")
    if players is None and scores and len(earlier) >= len(scores):
        raise DeckgenError(f"`after` lists {len(earlier)} earlier {'bid' if len(earlier) == 1 else 'bids'}, so the "
                           f"bidder is player {len(earlier) + 1}, but `scores` gives only {len(scores)}: give one "
                           "score per player, in bidding order with the bidder's last (or say `players P`)")
    if players is None:  # the bidder is taken to bid last
        players = len(scores) if scores else len(earlier) + 1
        if players < game.min_players:
            raise DeckgenError(f"list the bids already made this round (`after 1 0 ...`), or say `players P`: "
                               f"{game.id} is for {game.min_players}-{game.max_players} players")
    game.check_players(players)
    rounds = game.num_rounds(players)
    if round_number < 1 or rounds is not None and round_number > rounds:
        raise DeckgenError(f"with {players} players the rounds run 1-{rounds}")
    if scores is not None and len(scores) != players:
        raise DeckgenError(f"give one score per player ({players}), in bidding order with the bidder's last; "
                           f"found {len(scores)}")
    if len(earlier) > players - 1:
        raise DeckgenError(f"{len(earlier)} earlier bids for {players} players")
    bidding = game.bidding
    hand = game.hand(players, round_number)
    mine = len(earlier)
    playing = game.playing(players, round_number)  # the bidders: a dealer who sits out does not bid
    env = {"hand": hand, "round": round_number, "players": players, "playing": playing, "bids_before": sum(earlier),
           "bidders_before": len(earlier), "last": bidding.spec.style == "open" and len(earlier) == playing - 1,
           "ahead": bool(scores) and scores[mine] > max(s for i, s in enumerate(scores) if i != mine),
           "final_round": rounds is not None and round_number == rounds, "score": scores[mine] if scores else 0}
    allowed_bids, forbidden = bidding.allowed(dict(env))
    low, high = bidding.low(env), bidding.high(env)
    cited, rulings = [bidding.spec.rule], []
    if not low <= bid <= high:
        top = f"the {high} cards in hand" if high == hand else str(high)
        allowed, reason = False, f"a bid is a whole number from {low} to {top}"
    elif bid in forbidden:
        entry = forbidden[bid]
        allowed = False
        reason = fill(entry.why or entry.message or "the rules forbid it here", {**env, "bid": bid})
        cited.append(entry.rule)
        rulings.append(entry.ruling)
    else:
        allowed = True
        reason, more, why_rulings = _why_no_bid_is_forbidden(bidding, env, scores, forbidden)
        cited += more
        rulings += why_rulings
    active = bidding.forbids[0].spec.id if bidding.forbids else "none"
    return {
        "question": "bid", "bid": bid, "round": round_number, "players": players, "earlier_bids": earlier,
        "last_bidder": env["last"], "scores": scores, "leading": env["ahead"], "restriction": active,
        "allowed": allowed, "legal_bids": allowed_bids,
        "answer": f"A bid of {bid} is {'allowed' if allowed else 'NOT allowed'}: {reason}.",
        "reasons": [f"legal bids here: {', '.join(map(str, allowed_bids))}"],
        "rules": [rule for rule in cited if rule],  # a [rules.bidding] without a rule id cites none
        "rulings": [ruling for ruling in rulings if ruling],
    }


def _why_no_bid_is_forbidden(bidding, env: dict, scores, forbidden: dict) -> tuple[str, list[str], list[str]]:
    """Why this bid is allowed: the first part of the restriction in force that does not hold here,
    in words (reason, rules cited, rulings cited)."""
    if forbidden:
        entry = next(iter(forbidden.values()))
        return (f"the only bid the restriction forbids here is {', '.join(map(str, forbidden))}", [entry.rule], [])
    if not bidding.forbids:
        return "no bidding restriction is in force", [bidding.spec.unrestricted_rule], []
    forbid = bidding.forbids[0]
    entry = forbid.spec
    for part in forbid.before_parts:
        if compile_expr(part)(env):
            continue
        name = part[1] if part[0] == "name" else ""
        if name == "last":
            return "only the last bidder can be restricted", [], []
        if name == "final_round":
            return "the restriction applies only in the final round", [entry.rule], []
        if name == "ahead":
            return _not_ahead(scores), [entry.rule], []
        return "the restriction does not apply here", [entry.rule], []
    # the condition holds for this bidder: the bids themselves keep it from forbidding one
    hand, before = env["hand"], env["bids_before"]
    even = hand - before
    if not 0 <= even <= hand:
        return (f"the earlier bids total {before}, so no bid can make the bids add up to the {hand} tricks",
                [entry.rule], [entry.ruling])
    return (f"the bid that would make the total even is {'zero' if even == 0 else even}, which is always allowed",
            [entry.rule], [entry.ruling])


def _not_ahead(scores) -> str:
    """Why the bidder does not lead: no score sheet, behind someone, or level with the best."""
    if scores is None:
        return "no score sheet was given, so nobody leads (as before the first round)"
    own, best = scores[-1], max(scores[:-1])
    if own == best:
        return f"the bidder's {own} ties for the lead, and a tie for the lead is no lead, so the restriction does not apply"
    return f"the bidder's {own} is behind the leader's {best}, so the restriction does not apply"
