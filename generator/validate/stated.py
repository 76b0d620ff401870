"""Stated numbers: where the prose of a deck with `[rules]` says a number the rules data decides
(how many cards a hand holds, the score that ends the game, the points a card is worth) and the
data says another, a warning at the line of the text.

The rulebook's rules stay prose a designer writes; this reads that prose only where a sentence
says such a number in a way a pattern can see ("13 to each player", "everyone holds 13",
"reaches 100 points", "the first side to five points", "each heart ... scores 1 point", "the
Queen of Spades costs thirteen") and compares it with what the rules engine plays by the deck's
own parameters. A sentence it cannot read is left alone: the figures of play
(`generator.games.play_figures`) are the check that reads everything it is given.
"""

from __future__ import annotations

import re
from typing import Iterator

from ..core.errors import DeckgenError, Problem
from ..deck import figures
from ..deck.locate import Locator
from ..deck.model import Deck
from ..games.base import game_for
from ..games.tricks import NO_SUIT

_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen twenty").split()
NUMBER_WORDS = {word: value for value, word in enumerate(_WORDS)}
NUMBER_WORDS.update(thirty=30, forty=40, fifty=50, sixty=60, seventy=70, eighty=80, ninety=90)
NUMBER = r"(\d[\d,]*|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
POINTS_NUMBER = r"(\d[\d,]*|an?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"

# how many cards a hand holds; the first two only in a sentence about dealing or hands
_HAND_IN_DEAL = [re.compile(rf"\b{NUMBER} (?:cards? )?(?:to|for) (?:each|every) player\b"),
                 re.compile(rf"\b{NUMBER} (?:cards? )?each\b")]
_HAND = [re.compile(rf"\b(?:each player|every player|everyone) (?:is dealt|gets|receives|holds|has|is given) "
                    rf"{NUMBER}\b(?! (?:points?|tricks?))"),
         re.compile(rf"\bhands? of {NUMBER} cards?\b")]
_DEALING = re.compile(r"\b(?:deal|deals|dealt|dealer|give|gives|given|hand|hands)\b")
_FOR_PLAYERS = re.compile(rf"\b(?:for|with) {NUMBER} players\b")
# the score that ends the game
_TARGET = [re.compile(rf"\breach(?:es|ed|ing)? {NUMBER}\b(?! (?:cards?|tricks?|rounds?|hands?))"),
           re.compile(rf"\bfirst (?:\w+ )?to (?:score )?{NUMBER} points?\b"),
           re.compile(rf"\b(?:played|play|game) to {NUMBER} points?\b")]
_SCORE_TALK = re.compile(r"\b(?:score|scores|total|totals|points?|game|wins?)\b")
# what a card is worth, after its name: "... costs (you) a point", "... scores 1 point", "..., 13."
_WORTH_LATER = re.compile(rf"^s?(?![a-z])[^.;:]{{0,40}}?\b(?:costs?|scores?|is worth|are worth|counts?(?: for)?)\s+"
                          rf"(?:you\s+)?{POINTS_NUMBER}\s+points?\b")
_WORTH_NEXT = re.compile(rf"^\s+(?:costs?\s+|scores?\s+|is worth\s+)?(?:you\s+)?{NUMBER}(?:\s+points?)?\s*(?:[.;,)]|$)")


def number(word: str) -> int:
    word = word.replace(",", "")
    return 1 if word in ("a", "an") else NUMBER_WORDS[word] if word in NUMBER_WORDS else int(word)


class RulesFacts:
    """What the rules engine plays, with the deck's own parameters: every hand size by player
    count, the target score, and the points each named card or suit may be worth."""

    def __init__(self, deck: Deck):
        game = game_for(deck)
        self.players = range(game.min_players, game.max_players + 1)
        self.hands = {players: self._hands(game, players) for players in self.players}
        self.target = game.target
        self.rounds = {players: game.num_rounds(players) for players in self.players}
        self.worth = self._worth(game, deck)

    @staticmethod
    def _hands(game, players: int) -> set[int]:
        rounds = game.num_rounds(players) or game.max_rounds or 1
        return {game.hand(players, round_number) for round_number in range(1, min(rounds, 200) + 1)}

    @staticmethod
    def _worth(game, deck: Deck) -> dict[str, set[int]]:
        """For each card name and suit name (casefolded), the points its cards may be worth
        (every round suit considered); nothing when no card scores points."""
        if not game.has_points:
            return {}
        spec = game.rules.round_suit
        round_suits = [s for s in range(game.num_suits) if s not in spec.skip] if spec else [NO_SUIT]
        table = game.table
        values = [set() for _ in table.code]
        for round_suit in round_suits:
            for card, points in enumerate(game.round_tables[NO_SUIT, round_suit].points):
                values[card].add(abs(points))
        worth: dict[str, set[int]] = {}
        for card, code in enumerate(table.code):
            found = deck.find_card(code)
            if found is not None:
                worth.setdefault(found.name.casefold(), set()).update(values[card])
        for index, suit in enumerate(deck.suits):
            cards = [card for card, of in enumerate(table.suit) if of == index]
            if cards:
                worth.setdefault(suit.name.casefold().removesuffix("s"), set()).update(*(values[c] for c in cards))
        return worth

    def hand_claims(self, sentence: str) -> Iterator[str]:
        """What is wrong with each hand size the sentence states."""
        patterns = _HAND + (_HAND_IN_DEAL if _DEALING.search(sentence) else [])
        named = _FOR_PLAYERS.search(sentence)
        counts = [number(named.group(1))] if named and number(named.group(1)) in self.hands else list(self.players)
        for pattern in patterns:
            for match in pattern.finditer(sentence):
                stated = number(match.group(1))
                if not any(stated in self.hands[players] for players in counts):
                    sizes = sorted(set().union(*(self.hands[players] for players in counts)))
                    who = f"with {counts[0]} players" if len(counts) == 1 else f"with {counts[0]}-{counts[-1]} players"
                    yield (f"it says a hand holds {stated} card(s) ({match.group(0)!r}), but the rules deal "
                           f"{_listed(sizes)} {who}")

    def target_claims(self, sentence: str) -> Iterator[str]:
        if not _SCORE_TALK.search(sentence):
            return
        for pattern in _TARGET:
            for match in pattern.finditer(sentence):
                stated = number(match.group(1))
                if self.target is None:
                    yield (f"it says the game is played to {stated} ({match.group(0)!r}), but the rules end it "
                           "after a fixed number of rounds, with no target score")
                elif stated != self.target:
                    yield (f"it says the game is played to {stated} ({match.group(0)!r}), but the rules' "
                           f"target score is {self.target}")

    def points_claims(self, sentence: str) -> Iterator[str]:
        if not self.worth:
            return
        names = re.compile(r"\b(" + "|".join(re.escape(name) for name in sorted(self.worth, key=len, reverse=True))
                           + r")")
        found = list(names.finditer(sentence))
        for index, match in enumerate(found):
            # what follows the name, up to the next name: a claim never reaches across another card
            end = found[index + 1].start() if index + 1 < len(found) else len(sentence)
            after = sentence[match.end():end]
            said = _WORTH_LATER.match(after) or _WORTH_NEXT.match(after)
            if said is None:
                continue
            stated, worth = number(said.group(1)), self.worth[match.group(1)]
            if stated not in worth:
                yield (f"it says {match.group(1)} is worth {stated} point(s) ({(match.group(0) + said.group(0)).strip()!r}), "
                       f"but the rules' [[rules.points]] make it worth {_listed(sorted(worth))}")


def _listed(values: list[int]) -> str:
    if len(values) > 3 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} to {values[-1]}"
    return ", ".join(map(str, values[:-1])) + (" or " if len(values) > 1 else "") + str(values[-1])


def _sentences(line: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.;!?])\s+", line) if part.strip()]


def _prose_lines(text: str, deck: Deck, plain) -> Iterator[tuple[int, str]]:
    """(line within the text, words) of every line of prose; figures are left to the referee."""
    line = 0
    for piece in re.split(r"(\n\s*\n)", text):
        if piece.strip() and not figures.is_figure(" ".join(piece.split())):
            for offset, row in enumerate(piece.split("\n")):
                if row.strip():
                    yield line + offset, plain(row, deck)
        line += piece.count("\n")


def stated_number_problems(deck: Deck, plain) -> list[Problem]:
    """A warning for every number a rule text states that the deck's [rules] contradict.
    `plain(text, deck)` turns markup into words (the lint's)."""
    if deck.trick_rules is None:
        return []
    try:
        facts = RulesFacts(deck)
    except DeckgenError:
        return []  # the rules cannot be played: composition reports why
    locate = Locator(deck)
    problems = []
    for section in deck.sections:
        for item in (section, *section.rules):
            field = locate.rule_field(item.id, "text")
            for offset, words in _prose_lines(item.text, deck, plain):
                for sentence in _sentences(words.casefold()):
                    for message in (*facts.hand_claims(sentence), *facts.target_claims(sentence),
                                    *facts.points_claims(sentence)):
                        problems.append(Problem(message, field=field, line=locate.text_line(field, offset),
                                                severity="warning", file=deck.source,
                                                hint="correct the text, or the [rules] if the text is right"))
    return problems
