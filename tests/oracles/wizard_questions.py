"""Wizard's questions at the table (`deckgen rule wizard ...`): may I play this card, who wins
this trick, may I bid this. Each answers with the rules that decide it; see docs/game-logs.md."""

from __future__ import annotations

from generator.core.errors import DeckgenError
from generator.games.base import Game
from generator.games.questions import Question
from generator.games.tricks import NO_SUIT, parse_play_question, parse_trick_question, play_answer, words
from tests.oracles.wizard_rules import (R_BID_RANGE, R_FOLLOW, R_JESTER_LEAD, R_LEAD, R_OWN_CARDS, R_RESTRICTION,
                           R_RESTRICTION_VARIANTS, R_WINNER, R_WIZARD_LEAD, WIZARD_LED, forbidden_bid, trick_led_suit,
                           trick_winner)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Sequence


def play_question(game: Game, question: Sequence[str]) -> dict:
    """May this card be played to this trick from this hand (wizard.play.follow)?"""
    table = game.table
    asked = parse_play_question(question, table, ("trump",), (), R_OWN_CARDS)
    if not asked.trick:
        return play_answer(table, asked, asked.hand, R_LEAD, "the leader may lead any card")
    if len(asked.trick) >= game.max_players:
        raise DeckgenError(f"a trick has at most {game.max_players} cards before yours")
    led = trick_led_suit(asked.trick, game.is_wizard, game.is_jester, table.suit)
    if led == WIZARD_LED:
        return play_answer(table, asked, asked.hand, R_WIZARD_LEAD,
                           "a Wizard set this trick, so nobody has to follow suit")
    if led == NO_SUIT:
        return play_answer(table, asked, asked.hand, R_JESTER_LEAD,
                           "only Jesters have been played, so no suit is set yet")
    suit = game.deck.suits[led].name
    following = [card for card in asked.hand if table.suit[card] == led]
    if not following:
        return play_answer(table, asked, asked.hand, R_FOLLOW,
                           f"{suit} is the suit to follow and the hand holds none, so any card goes",
                           ["wizard.ruling.no-overtrump"])
    legal = [card for card in asked.hand if game.playable_when_led[led][card]]
    setter = next(card for card in asked.trick if not game.is_jester[card])
    jester_first = setter != asked.trick[0]
    how = (f"a Jester was led and {table.code[setter]} set {suit}" if jester_first else f"{suit} was led")
    return play_answer(table, asked, legal, [R_FOLLOW, R_JESTER_LEAD] if jester_first else R_FOLLOW,
                       f"{how} and the hand holds {suit}: follow suit, or play a Wizard or Jester")


def trick_question(game: Game, question: Sequence[str]) -> dict:
    table = game.table
    asked = parse_trick_question(question, table, ("trump",))
    trump_word = asked.settings.get("trump", "none")
    trump = NO_SUIT if trump_word.casefold() == "none" else table.suit_from_text(trump_word)
    if trump is None:
        raise DeckgenError(f"unknown trump suit {trump_word!r}; say one of "
                           f"{', '.join(s.name for s in game.deck.suits)} or `no trump`")
    cards = [card for _, card in asked.cards]
    led = trick_led_suit(cards, game.is_wizard, game.is_jester, table.suit)
    winner = trick_winner(cards, game.strengths[trump, led])
    card = cards[winner]
    who = asked.player(winner)
    reasons, rules, rulings = [], [R_WINNER], []
    if game.is_wizard[card]:
        reasons.append("it is the first Wizard played to the trick")
        if winner == 0:
            rules.append(R_WIZARD_LEAD)
        elif all(game.is_jester[c] for c in cards[:winner]):
            rules.append(R_JESTER_LEAD)
            rulings.append("wizard.ruling.jester-then-wizard")
    elif game.is_jester[card]:
        reasons.append("every card in the trick is a Jester, so the first Jester takes it")
    elif table.suit[card] == trump:
        reasons.append(f"no Wizard was played, and it is the highest trump ({game.deck.suits[trump].name})")
    else:
        reasons.append(f"no Wizard or trump was played, and it is the highest card of the suit led "
                       f"({game.deck.suits[led].name})")
        if game.is_jester[cards[0]]:
            rules.append(R_JESTER_LEAD)
    trump_text = "no trump" if trump == NO_SUIT else f"trump {game.deck.suits[trump].name}"
    return {
        "question": "trick", "trump": None if trump == NO_SUIT else game.deck.suits[trump].id,
        "cards": [{"player": asked.player(i), "card": table.code[c]} for i, c in enumerate(cards)],
        "winner": {"position": winner + 1, "player": who, "card": table.code[card]},
        "answer": f"{who[0].upper()}{who[1:]} wins with {table.name[card]} ({table.code[card]}, card {winner + 1} of "
                  f"{len(cards)}, {trump_text}).",
        "reasons": reasons, "rules": rules, "rulings": rulings,
    }


def bid_question(game: Game, question: Sequence[str]) -> dict:
    usage = "usage: bid N round R [after B B ...] [scores S S ...] [players P]"
    tokens = words(question)[1:]
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
            if word == "players":
                players = int(following)
            else:
                round_number = int(following)
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
    if round_number < 1 or round_number > game.num_rounds(players):
        raise DeckgenError(f"with {players} players the rounds run 1-{game.num_rounds(players)}")
    if scores is not None and len(scores) != players:
        raise DeckgenError(f"give one score per player ({players}), in bidding order with the bidder's last; "
                           f"found {len(scores)}")
    if len(earlier) > players - 1:
        raise DeckgenError(f"{len(earlier)} earlier bids for {players} players")
    last = len(earlier) == players - 1
    # wizard.ruling.leader: the bidder leads only when strictly ahead of everyone (a tie is no lead)
    leading = bool(scores) and scores[len(earlier)] > max(s for i, s in enumerate(scores) if i != len(earlier))
    final = round_number == game.num_rounds(players)
    forbidden, rule = forbidden_bid(game.restriction, round_number, sum(earlier), last, leading, final)
    rules, rulings = [R_BID_RANGE], []
    if not 0 <= bid <= round_number:
        allowed, reason = False, f"a bid is a whole number from 0 to the {round_number} cards in hand"
    elif bid == forbidden:
        allowed = False
        reason = (f"the bids would add up to the {round_number} tricks available, which the last bidder "
                  + ("may never do" if game.restriction == "never-even" else "may not do when strictly ahead"))
        rules.append(rule)
        if game.restriction != "never-even":  # the ruling says who leads; never-even binds anyone
            rulings.append("wizard.ruling.leader")
    else:
        allowed = True
        if forbidden is not None:
            reason = f"the only bid the restriction forbids here is {forbidden}"
            rules.append(rule)
        elif game.restriction == "none":
            reason = "no bidding restriction is in force"
            rules.append(R_RESTRICTION_VARIANTS)
        elif not last:
            reason = "only the last bidder can be restricted"
        elif game.restriction == "final-round" and not final:
            reason = "the restriction applies only in the final round"
            rules.append(R_RESTRICTION_VARIANTS)
        elif game.restriction != "never-even" and not leading:
            reason = ("no score sheet was given, so nobody leads (as before the first round)" if scores is None
                      else f"{_standing(scores, len(earlier))}, so the restriction does not apply")
            rules.append(R_RESTRICTION)
        else:
            even = round_number - sum(earlier)
            reason = (f"the earlier bids total {sum(earlier)}, so no bid can make the bids add up to the "
                      f"{round_number} tricks" if not 0 <= even <= round_number
                      else "the bid that would make the total even is zero, which is always allowed")
            rules.append(rule or R_RESTRICTION)
            rulings.append("wizard.ruling.leader")
    legal = [b for b in range(round_number + 1) if b != forbidden]
    return {
        "question": "bid", "bid": bid, "round": round_number, "players": players, "earlier_bids": earlier,
        "last_bidder": last, "scores": scores, "leading": leading, "restriction": game.restriction,
        "allowed": allowed,
        "legal_bids": legal,
        "answer": f"A bid of {bid} is {'allowed' if allowed else 'NOT allowed'}: {reason}.",
        "reasons": [f"legal bids here: {', '.join(map(str, legal))}"], "rules": rules, "rulings": rulings,
    }


def _standing(scores: list[int], bidder: int) -> str:
    """Why the bidder does not lead: behind someone, or level with the best (a tie is no lead)."""
    own = scores[bidder]
    best = max(score for seat, score in enumerate(scores) if seat != bidder)
    if own == best:
        return f"the bidder's {own} ties for the lead, and a tie for the lead is no lead"
    return f"the bidder's {own} is behind the leader's {best}"


TRICK_USAGE = "trick [trump SUIT | no trump] [lead NAME] CARD CARD ..."
TRICK_SUMMARY = ("who wins the trick, and why: cards in play order, in the deck's codes; a name before a card "
                 "says who played it")
PLAY_USAGE = "play CARD hand CARD ... [trick CARD ...]"
QUESTIONS = (
    Question("trick", "trick", TRICK_USAGE, TRICK_SUMMARY, "trump hearts, led by North: 7H, JE, QS, WZ",
             trick_question, default=True),
    Question("bid", "bid", "bid N round R [after B B ...] [scores S S ...] [players P]",
             "whether a bid is allowed: R is the round (cards in hand), `after` the bids already made this "
             "round, `scores` the score sheet before the round in bidding order, the bidder's last",
             "bid 1 round 3 after 1 0 1 scores 20 40 10 60", bid_question),
    Question("play", "play", f"{PLAY_USAGE} [trump SUIT | no trump]",
             "may this card be played from this hand to this trick? For no, the legal cards",
             "play 7H hand 7H 9S JE trick JE 2S", play_question),
)
