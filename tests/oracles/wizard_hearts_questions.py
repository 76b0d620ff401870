"""Quick rulings for Wizard Hearts (`deckgen rule wizard-hearts ...`): may a card be played,
and who wins a trick (and for how many points), without a game log."""

from __future__ import annotations

from generator.core.errors import DeckgenError
from generator.games.base import Game
from generator.games.questions import Question
from generator.games.tricks import parse_play_question, parse_trick_question, play_answer
from tests.oracles.wizard_hearts_rules import (R_BROKEN, R_FIRST_LEAD, R_FIRST_TRICK, R_FOLLOW, R_HAND, R_LEAD, R_OWN_CARDS,
                                  R_WINNER, trick_winner)
from tests.oracles.wizard_questions import PLAY_USAGE, TRICK_SUMMARY, TRICK_USAGE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Sequence


def shun_setting(game: Game, word: str | None) -> int | None:
    shun = None if word is None else game.table.suit_from_text(word)
    if word is not None and shun not in game.opposite_queen:
        raise DeckgenError(f"the Shun suit must be one of {', '.join(game.deck.suits[s].name for s in game.shun_suits)}")
    return shun


def play_question(game: Game, question: Sequence[str]) -> dict:
    """May this card be played: the first lead, following suit, the clean first trick, and
    (with the variant) leading Shun before it is broken."""
    table = game.table
    asked = parse_play_question(question, table, ("shun",), ("first", "broken"), R_OWN_CARDS)
    shun = shun_setting(game, asked.settings.get("shun"))
    first = "first" in asked.flags
    hand, trick = asked.hand, asked.trick
    if len(trick) >= game.max_players:
        raise DeckgenError(f"a trick has at most {game.max_players} cards before yours")
    if first and not trick:
        lead = game.lead_card
        if lead in hand:
            return play_answer(table, asked, [lead], R_FIRST_LEAD,
                               f"whoever holds {table.name[lead]} leads it to the first trick")
        luck = [card for card in hand if table.suit[card] == game.luck]
        if not luck:
            raise DeckgenError(f"the first trick is led by whoever holds {table.name[lead]} (or, with it in the "
                               "Cauldron, the lowest Luck card in play); this hand holds no Luck card")
        lowest = min(luck, key=table.rank.__getitem__)
        return play_answer(table, asked, [lowest], R_FIRST_LEAD,
                           f"without {table.name[lead]}, the lowest Luck card in play leads (taking it that "
                           f"{table.code[lowest]} is the lowest and the Two lies in the Cauldron)",
                           ["wh.ruling.luck-two"])
    if not trick:
        if game.shun_must_be_broken and shun is not None and "broken" not in asked.flags:
            unbroken = [card for card in hand if table.suit[card] != shun]
            if unbroken:
                return play_answer(table, asked, unbroken, R_BROKEN,
                                   "the Shun suit may not be led before it is broken while other cards are held")
        return play_answer(table, asked, hand, R_LEAD, "the winner of the last trick may lead any card")
    led = table.suit[trick[0]]
    suit = game.deck.suits[led].name
    options = [card for card in hand if table.suit[card] == led] or list(hand)
    how = (f"{suit} was led and the hand holds {suit}: follow suit" if table.suit[options[0]] == led
           else f"{suit} was led and the hand holds none, so any card goes")
    if first:
        if shun is None:
            raise DeckgenError("on the first trick the Shun suit matters: add `shun SUIT`")
        queen = game.opposite_queen[shun]
        clean = [card for card in options if table.suit[card] != shun and card != queen]
        if clean and len(clean) < len(options):
            return play_answer(table, asked, clean, [R_FIRST_TRICK, R_FOLLOW],
                               f"{how}, but no Shun card and not the Opposite Queen "
                               f"({table.code[queen]}) on the first trick", ["wh.ruling.first-trick"])
    return play_answer(table, asked, options, R_FOLLOW, how)


def trick_question(game: Game, question: Sequence[str]) -> dict:
    table = game.table
    asked = parse_trick_question(question, table, ("shun",))
    shun = shun_setting(game, asked.settings.get("shun"))
    cards = [card for _, card in asked.cards]
    winner = trick_winner(cards, game.strengths[table.suit[cards[0]]])
    card = cards[winner]
    led = game.deck.suits[table.suit[cards[0]]].name
    who = asked.player(winner)
    reasons = [f"{table.name[card]} is the highest {led} card in the trick; other suits never win "
               f"(order A K Q J Wizard 10 ... 2)"]
    rules = [R_WINNER]
    answer = f"{who[0].upper()}{who[1:]} wins with {table.name[card]} ({table.code[card]}, card {winner + 1} of {len(cards)})."
    result: dict[str, Any] = {"question": "trick",
                              "cards": [{"player": asked.player(i), "card": table.code[c]} for i, c in enumerate(cards)],
                              "winner": {"position": winner + 1, "player": who, "card": table.code[card]}}
    if shun is not None:
        points = game._points[shun]
        total = sum(points[c] for c in cards)
        parts = [f"{table.code[c]} {points[c]:+d}" for c in cards if points[c]]
        answer += f" With {game.deck.suits[shun].name} as the Shun suit the trick is worth {total:+d} points"
        answer += f" ({', '.join(parts)})." if parts else "."
        rules.append(R_HAND)
        result.update(shun=game.deck.suits[shun].id, points=total,
                      opposite_queen=table.code[game.opposite_queen[shun]])
    result.update(answer=answer, reasons=reasons, rules=rules, rulings=[])
    return result


QUESTIONS = (
    Question("trick", "trick", TRICK_USAGE.replace("[trump SUIT | no trump]", "[shun SUIT]"),
             TRICK_SUMMARY + "; with the Shun suit, also the trick's points", "shun fire: 9I QI WF 2L",
             trick_question, default=True),
    Question("play", "play", f"{PLAY_USAGE} [shun SUIT] [first] [broken]",
             "may this card be played? `first` for the hand's first trick, `broken` once the Shun suit is "
             "broken; for no, the legal cards", "play QS hand QS 3F trick 2M first shun fire", play_question),
)
