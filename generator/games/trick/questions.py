"""Questions at the table for a rules-engine game (`deckgen rule DECK ...`), answered by the
same card tables and option steps the games are played by:

    [trick] [trump S | no trump] [<round suit key> S] [lead NAME] CARD ...   who wins, for how many points
    play CARD hand CARD ... [trick CARD ...] [trump S] [<key> S] [first] [broken]   may this card be played
    bid N round R [after B ...] [scores S ...] [players P]                   is this bid allowed
"""

from __future__ import annotations

from types import SimpleNamespace

from ...core.errors import DeckgenError
from ..tricks import (NO_SUIT, parse_play_question, parse_trick_question, play_answer, words)
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
    reasons, cited, rulings = [], [rules.play.winner_rule], []
    suits = game.deck.suits
    if claim == WIN:
        which = "first" if rules.always_wins.among_equals == "first" else "last"
        reasons.append(f"it is the {which} {table.name[card]} played to the trick, and nothing beats it")
        if winner == 0 and rules.always_wins.lead_rule:
            cited.append(rules.always_wins.lead_rule)
        elif winner and all(c in tables.loses for c in cards[:winner]) and rules.always_loses:
            cited += [rules.always_loses.lead_rule] if rules.always_loses.lead_rule else []
            rulings += [rules.always_loses.lead_ruling] if rules.always_loses.lead_ruling else []
    elif card in tables.loses:
        reasons.append(f"every card in the trick is a card that never wins, so the "
                       f"{rules.always_loses.among_equals} one takes it")
    elif claim >= TRUMP_CLAIM:
        reasons.append(f"nothing beats trumps here, and it is the highest trump ({suits[trump].name})")
    else:
        no_trump = "" if rules.trump.kind == "none" else "no trump was played and "
        reasons.append(f"{table.name[card]} is the highest {suits[led].name} card in the trick; {no_trump}"
                       "other suits never win")
        if cards[0] in tables.loses and rules.always_loses and rules.always_loses.lead_rule:
            cited.append(rules.always_loses.lead_rule)
    result = {"question": "trick", "cards": [{"player": asked.player(i), "card": table.code[c]}
                                             for i, c in enumerate(cards)],
              "winner": {"position": winner + 1, "player": who, "card": table.code[card]}}
    answer = f"{who} wins with {table.name[card]} ({table.code[card]}, card {winner + 1} of {len(cards)}"
    if rules.trump.kind != "none":
        result["trump"] = None if trump == NO_SUIT else suits[trump].id
        answer += ", no trump" if trump == NO_SUIT else f", trump {suits[trump].name}"
    answer += ")."
    if game.has_points and (round_suit != NO_SUIT or not rules.round_suit):
        points = tables.points
        total = sum(points[c] for c in cards)
        parts = [f"{table.code[c]} {points[c]:+d}" for c in cards if points[c]]
        setting = f" With {suits[round_suit].name} as the {rules.round_suit.name}" if rules.round_suit else ""
        answer += f"{setting} the trick is worth {total:+d} points" + (f" ({', '.join(parts)})." if parts else ".")
        cited.append(rules.scoring.rule)
        result["points"] = total
        if rules.round_suit:
            result[rules.round_suit.key] = suits[round_suit].id
    result.update(answer=answer, reasons=reasons, rules=cited, rulings=rulings)
    return result


def play_question(game, tokens: list[str]) -> dict:
    """May this card be played: the option steps of a real game, at a table set up from the question."""
    table, rules = game.table, game.rules
    asked = parse_play_question(tokens, table, _settings(game), ("first", "broken"))
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
    first_card = -1
    rulings = []
    if first and not asked.trick and rules.play.first_lead.by == "holder":
        first_card = rules.play.first_lead.card
        if first_card not in hand:
            suit = table.suit[first_card]
            own = [card for card in hand if table.suit[card] == suit]
            if not own or rules.play.first_lead.otherwise != "lowest-of-suit":
                raise DeckgenError(f"the first trick is led by whoever holds {table.name[first_card]}; this hand "
                                   "does not hold it")
            first_card = min(own, key=table.rank.__getitem__)  # taking it that this is the lowest in play
            rulings.append(rules.play.first_lead.ruling)
    by_suit = [[] for _ in range(game.num_suits + 2)]
    for card in hand:
        by_suit[game.bucket[card]].append(card)
    seat = SimpleNamespace(
        game=game, table=table, hands=[hand], by_suit=[by_suit], trick=list(asked.trick),
        trick_number=0 if first else 1, led=_led(tables, asked.trick), trump=trump, tables=tables,
        info=SimpleNamespace(first_card=first_card, broken=[("broken" in asked.flags) for _ in rules.play.restrictions]))
    options = play_options(seat, 0)
    cited, reason, more = _explain(game, seat, options)
    return play_answer(table, asked, options.cards, cited, reason, [r for r in rulings + more if r])


def _explain(game, seat, options) -> tuple[list[str], str, list[str]]:
    """The rules that decide what may be played here, why in words, and the rulings cited."""
    rules, table = game.rules, game.table
    play = rules.play
    narrowed = [restriction for kind, restriction, _ in options.steps if kind == "restrict"]
    rulings = [restriction.ruling for restriction in narrowed]
    if not seat.trick:
        if seat.info.first_card >= 0:
            return [play.first_lead.rule], f"whoever holds {table.name[seat.info.first_card]} leads it to the first trick", []
        if narrowed:
            names = " or ".join(name for r in narrowed for name in r.names)
            return [narrowed[-1].rule], f"{names} may not be led here while the hand holds other cards", rulings
        return [play.lead_rule], "the leader may lead any card", []
    setter = next((card for card in seat.trick if seat.tables.sets_led[card] != NO_SUIT), None)
    if seat.led == OPEN:
        rule = rules.always_wins.lead_rule or play.follow_rule
        return [rule], f"a {table.name[setter]} set this trick, so nobody has to follow suit", []
    if seat.led == NO_SUIT:
        rule = rules.always_loses.lead_rule if rules.always_loses and rules.always_loses.lead_rule else play.follow_rule
        return [rule], "no card played so far sets a suit to follow", []
    suit = game.deck.suits[seat.led].name
    after_null = setter != seat.trick[0] and rules.always_loses and rules.always_loses.lead_rule
    base = [play.follow_rule] + ([rules.always_loses.lead_rule] if after_null else [])
    more = []
    if not seat.by_suit[0][seat.led]:
        reason = f"{suit} is the suit to follow and the hand holds none, so any card goes"
        more.append(play.void_ruling)
    else:
        how = f"a {table.name[seat.trick[0]]} was led and {table.code[setter]} set {suit}" if after_null else f"{suit} was led"
        free = sorted({table.name[card] for card in range(len(table.code)) if game.any_time[card]})
        also = f", or play a {' or '.join(free)}" if free else ""
        reason = f"{how} and the hand holds {suit}: follow suit{also}"
    if narrowed:
        names = " or ".join(name for r in narrowed for name in r.names)
        return [narrowed[-1].rule] + base, f"{reason}, but not {names} here", rulings
    return base, reason, more


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
        else:
            raise DeckgenError(f"cannot read {rest[position]!r}; {usage}")
    if round_number is None:
        raise DeckgenError(f"say which round: {usage}")
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
    env = {"hand": hand, "round": round_number, "players": players, "bids_before": sum(earlier),
           "bidders_before": len(earlier),
           "last": bidding.spec.style == "open" and len(earlier) == players - 1,
           "ahead": bool(scores) and scores[mine] > max(s for i, s in enumerate(scores) if i != mine),
           "final_round": rounds is not None and round_number == rounds, "score": scores[mine] if scores else 0}
    allowed_bids, forbidden = bidding.allowed(env)
    low, high = bidding.low(env), bidding.high(env)
    cited, rulings = [bidding.spec.rule], []
    if not low <= bid <= high:
        allowed, reason = False, f"a bid is a whole number from {low} to {high}"
    elif bid in forbidden:
        entry = forbidden[bid]
        allowed = False
        reason = (entry.message.replace("{bid}", str(bid)).replace("{hand}", str(hand))
                  if entry.message else "the rules forbid it here")
        cited.append(entry.rule)
        rulings += [entry.ruling] if entry.ruling else []
    else:
        allowed = True
        reason = (f"no restriction of the rules forbids it (forbidden here: {', '.join(map(str, forbidden))})"
                  if forbidden else "no restriction of the rules forbids a bid here")
        cited += sorted({entry.rule for entry in forbidden.values()})
    return {
        "question": "bid", "bid": bid, "round": round_number, "players": players, "earlier_bids": earlier,
        "last_bidder": env["last"], "scores": scores, "leading": env["ahead"], "allowed": allowed,
        "legal_bids": allowed_bids,
        "answer": f"A bid of {bid} is {'allowed' if allowed else 'NOT allowed'}: {reason}.",
        "reasons": [f"legal bids here: {', '.join(map(str, allowed_bids))}"], "rules": cited, "rulings": rulings,
    }
