"""Muggle Quidditch's questions at the table (`deckgen rule muggle-quidditch ...`): may this
pair score against that Keeper, how many cards a Seeker turns in the dive, what may this card
do in the action step. Each answer names the rules that decide it; see docs/game-logs.md."""

from __future__ import annotations

from typing import Sequence

from ..core.errors import DeckgenError
from .base import Action
from .muggle_quidditch_rules import ACTION, GOAL_SUM, JOKER, POSITIONS, Discard, Dive, Recruit, Refusal, Spot
from .muggle_quidditch_state import MuggleQuidditchState, cards_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from .muggle_quidditch import MuggleQuidditchGame


def ask(game: "MuggleQuidditchGame", words: Sequence[str]) -> dict:
    """`goal 7H 5S [keeper KD|none] [house hearts] [rival diamonds]`: may this pair score?
    `dive AD house hearts rival diamonds`: how many cards does this Seeker draw in the dive?"""
    tokens = [word.lstrip("-").lower() for phrase in words for word in phrase.replace(",", " ").split()]
    if tokens and tokens[0] == "play":
        return _play_question(game, tokens[1:])
    if not tokens or tokens[0] not in ("goal", "dive"):
        raise DeckgenError("ask `goal CARD CARD [keeper CARD|none] [house SUIT] [rival SUIT]` or "
                           "`dive SEEKER house SUIT rival SUIT`, e.g. "
                           "deckgen rule muggle-quidditch goal 7H 5S keeper KD house hearts rival diamonds")
    question, options, cards = tokens[0], {}, []
    aliases = {"keeper": "keeper", "house": "house", "attacker": "house", "mine": "house",
               "rival": "rival", "defender": "rival", "against": "rival"}
    position = 1
    try:
        while position < len(tokens):
            word = tokens[position]
            if word in aliases:
                if position + 1 >= len(tokens):
                    raise ValueError(f"{word!r} needs a value")
                options[aliases[word]] = tokens[position + 1]
                position += 2
            else:
                cards.append(game.code(word))
                position += 1
        house = game.suit_named(options["house"]) if "house" in options else None
        rival = game.suit_named(options["rival"]) if "rival" in options else None
        keeper = options.get("keeper")
        keeper = None if keeper in (None, "none", "no") else game.code(keeper)
    except ValueError as error:
        raise DeckgenError(f"rule muggle-quidditch {question}: {error}") from None
    if house is not None and house == rival:
        raise DeckgenError("the two players lead different houses: give two different suits")
    if question == "goal":
        return _goal_question(game, cards, keeper, house, rival)
    return _dive_question(game, cards, house, rival)


def _play_question(game: "MuggleQuidditchGame", tokens: list[str]) -> dict:
    """`play CARD hand CARD ... [house SUIT] [rival SUIT] [team CARD ...] [rival-team CARD ...] [spotted]`:
    what may this card do in the action step (put in the team, score, hit, spot or dive)?"""
    usage = ("ask: play CARD hand CARD ... [house SUIT] [rival SUIT] [team CARD ...] [rival-team CARD ...] "
             "[spotted]   (the asker's action step; `spotted` when one Joker is on the table)")
    lists: dict[str, list[str]] = {"hand": [], "team": [], "rival-team": []}
    options: dict[str, str] = {}
    spotted, current = False, None
    try:
        if not tokens:
            raise ValueError("say the card first")
        card = game.code(tokens[0])
        position = 1
        while position < len(tokens):
            word = tokens[position]
            if word in lists:
                current = lists[word]
            elif word in ("house", "rival") and position + 1 < len(tokens):
                options[word] = game.suit_named(tokens[position + 1])
                position += 1
                current = None
            elif word == "spotted":
                spotted, current = True, None
            elif current is not None:
                current.append(game.code(word))
            else:
                raise ValueError(f"cannot read {word!r}")
            position += 1
    except ValueError as error:
        raise DeckgenError(f"rule muggle-quidditch play: {error}; {usage}") from None
    suits = [suit.id for suit in game.deck.suits]
    house = options.get("house", suits[0])
    rival = options.get("rival", next(suit for suit in suits if suit != house))
    if house == rival:
        raise DeckgenError("the two players lead different houses: give two different suits")
    hand = lists["hand"]
    if not hand:
        raise DeckgenError(f"rule muggle-quidditch play: say the cards of the hand; {usage}")
    if card in hand and card in lists["team"]:
        raise DeckgenError(f"the deck has one {card}: it cannot be both in the hand and on the team")
    state = game.new_state()
    state.houses = [house, rival]
    state.hands = [list(hand), []]
    for seat, key in ((0, "team"), (1, "rival-team")):
        for code in lists[key]:
            kind = game.kind_of[code]
            if kind not in POSITIONS:
                raise DeckgenError(f"{code} is not a team player (Ace, King, Queen or Jack)")
            if kind in state.teams[seat]:
                raise DeckgenError(f"a team has one {kind}: {state.teams[seat][kind]} and {code}")
            state.teams[seat][kind] = code
    state.snitch = [JOKER] if spotted else []
    state.phase, state.active, state.turn = ACTION, 0, 1
    choices = state._action_choices()
    every = list(dict.fromkeys(game.format_action(state, action) for action in choices))
    if card not in hand and card not in lists["team"]:  # only the asker's own cards act
        return {"question": "play", "card": card, "allowed": False, "legal": every,
                "answer": f"No: {card} is neither in the hand given ({' '.join(hand)}) nor on the team, and a "
                          "player acts only with their own cards.",
                "reasons": [], "rules": ["mq.turn.actions"], "rulings": []}
    uses = [action for action in choices if not isinstance(action, Discard) and card in cards_of(action)]
    shown = [game.format_action(state, action) for action in uses]
    if uses:
        discarded = " (or discarded)" if card in hand else ""
        return {"question": "play", "card": card, "allowed": True, "legal": shown,
                "answer": f"Yes: {card} may be used now: {', '.join(shown)}{discarded}.",
                "reasons": [], "rules": ["mq.turn.actions"], "rulings": []}
    if card not in hand:  # on the team: only the team Beater acts from there
        why = ("the other team has nobody to hit" if game.kind_of[card] == "beater"
               else "of the team, only the Beater acts, with a Bludger")
        return {"question": "play", "card": card, "allowed": False, "legal": every,
                "answer": f"No: {card} is on the team, and {why}.",
                "reasons": [], "rules": ["mq.bludger.team"], "rulings": []}
    refusal = _play_refusal(game, state, card)
    return {"question": "play", "card": card, "allowed": False, "legal": [f"discard {card}"],
            "answer": f"No: {card} can only be discarded now: {refusal.message}.",
            "reasons": [], "rules": [refusal.rule], "rulings": [refusal.ruling] if refusal.ruling else []}


def _play_refusal(game: "MuggleQuidditchGame", state: "MuggleQuidditchState", card: str) -> Refusal:
    """Why the most natural use of a card is refused in this position."""
    kind = game.kind_of[card]
    if card == JOKER:
        attempt: Action = Dive() if state.snitch else Spot()
    elif kind in POSITIONS:
        attempt = Recruit(card)
    else:
        partners = [other for other in state.hands[0] if other != card and game.value_of[other] is not None
                    and game.value_of[other] + (game.value_of[card] or 0) == GOAL_SUM]
        if not partners:
            return Refusal(f"no card in the hand adds up to {GOAL_SUM} with {card}", "mq.goal.pair")
        attempt = game.goal_of[card, partners[0]]
    refusal = state._action_refusal(attempt)
    return refusal or Refusal("nothing else is open to it here", "mq.turn.actions")


def _goal_question(game: "MuggleQuidditchGame", cards: list[str], keeper: str | None, house: str | None, rival: str | None) -> dict:
    if len(cards) != 2:
        raise DeckgenError(f"a goal is two cards; found {len(cards)}: {' '.join(cards) or 'none'}")
    if keeper is not None and game.kind_of[keeper] != "keeper":
        raise DeckgenError(f"{keeper} is not a Keeper (a King)")
    if keeper is not None and (house is None or rival is None):
        raise DeckgenError("against a Keeper the answer depends on both houses: add `house SUIT rival SUIT` "
                           "(the scorer's house, then the defender's)")
    pair = game.goal_pair(*cards)
    refusal = game.goal_refusal(pair, house, rival, keeper)
    against = f"against the Keeper {keeper}" if keeper else "with no Keeper to stop it"
    # The rule that decided first, then the others a goal depends on.
    rules = ["mq.goal.pair"] + ([game.keeper_rule_id, "mq.goal.keeper"] if keeper else []) + ["mq.goal.chaser"]
    if refusal is None:
        points = game.params["goal_points"]
        return {"answer": f"Yes: {pair[0]} + {pair[1]} may score {against} ({points} points), "
                          "as long as your team has a Chaser.",
                "allowed": True, "points": points, "reasons": [], "rules": list(dict.fromkeys(rules)),
                "rulings": [game.keeper_ruling_id] if keeper else []}
    return {"answer": f"No: {pair[0]} + {pair[1]} may not score {against}.", "allowed": False, "points": 0,
            "reasons": [refusal.message], "rules": list(dict.fromkeys([refusal.rule] + rules)),
            "rulings": [refusal.ruling] if refusal.ruling else []}


def _dive_question(game: "MuggleQuidditchGame", cards: list[str], house: str | None, rival: str | None) -> dict:
    if len(cards) != 1 or game.kind_of[cards[0]] != "seeker":
        raise DeckgenError("ask about one Seeker (an Ace), e.g. `dive AD house hearts rival diamonds`")
    if house is None or rival is None:
        raise DeckgenError("the dive bonus depends on both houses: add `house SUIT rival SUIT`")
    seeker = cards[0]
    quota = game.dive_quota(seeker, house, rival)
    suit = game.suit_of[seeker]
    why = ("of your own house suit: 2 extra cards" if suit == house else
           "of the rival's house suit: no extra cards" if suit == rival else "of a neutral suit: 1 extra card")
    return {"answer": f"{seeker} dives for {game.house_name(house)} with {quota} cards.",
            "reasons": [f"{game.params['dive_cards']} cards, and the Seeker is {why}"],
            "rules": ["mq.dive.draws"], "rulings": []}
