"""Rule texts against the rulings that cite them: a ruling's decision and a rule it names must
not state different numbers or different moments for the same thing.

Two readings, each narrow enough to be right when it speaks ("where it can see them"):

- **Numbers.** Each number in a text is taken with the words around it, the number itself
  blanked out ("each Seeker draws # cards plus"). When the decision and the rule share such a
  frame but the decision's number is not one the rule uses in it, they disagree.
- **Moments.** A trigger clause is what follows "the moment", "as soon as" or "at the
  start/end of" up to the next punctuation ("the moment the last card leaves the draw pile").
  When the decision and the rule each have one about the same thing (a two-word name they
  share, such as "draw pile") and no clause of the rule says much the same as the decision's,
  they disagree.

A finding is a warning at the ruling's decision, naming both sentences, since the fix may
belong to either text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from ..core.errors import Problem
from ..deck.locate import Locator
from ..deck.model import Deck, Ruling
from .lint import plain

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
# Words that carry no meaning of their own in a frame or a clause.
STOPWORDS = frozenset("""a an the and or of to in on at by for with from as is are be been it its this that
their your you they them each every any all his her there then than but if so do does""".split())
TRIGGERS = ("the moment", "as soon as", "at the start of", "at the end of")
FRAME_WORDS = 2  # words kept on each side of a number
SAME_CLAUSE = 0.5  # share of content words two clauses need in common to say the same


@dataclass(frozen=True)
class Sentence:
    text: str
    words: tuple[str, ...]  # lower-case words, numbers as ints in digit form


def sentences(text: str) -> list[Sentence]:
    """The sentences of a plain text (list items count as sentences)."""
    found = []
    for raw in re.split(r"(?<=[.!?;:])\s+|\n+", text):
        raw = raw.strip(" -\t")
        if raw:
            words = tuple(str(NUMBER_WORDS.get(word, word)) for word in re.findall(r"[a-z0-9']+", raw.casefold()))
            found.append(Sentence(raw, words))
    return found


def number_frames(sentence: Sentence) -> Iterator[tuple[tuple[str, ...], int]]:
    """(frame, number) for every number in a sentence: the words either side, numbers blanked."""
    words = sentence.words
    for index, word in enumerate(words):
        if not word.isdigit():
            continue
        before = words[max(0, index - FRAME_WORDS):index]
        after = words[index + 1:index + 1 + FRAME_WORDS]
        if len(before) + len(after) < FRAME_WORDS + 1:  # too little context to be the same claim
            continue
        frame = tuple("#" if w.isdigit() else w for w in (*before, "#", *after))
        yield frame, int(word)


def trigger_clauses(sentence: Sentence) -> Iterator[tuple[str, frozenset[str]]]:
    """(clause, its content words) after each trigger phrase, up to the next punctuation."""
    lowered = sentence.text.casefold()
    for trigger in TRIGGERS:
        for match in re.finditer(rf"\b{trigger}\b", lowered):
            clause = re.split(r"[,;:.()]", lowered[match.end():], maxsplit=1)[0].strip()
            words = frozenset(w for w in re.findall(r"[a-z']+", clause) if w not in STOPWORDS)
            if words:
                yield f"{trigger} {clause}", words


def names(words: frozenset[str], clause: str) -> set[str]:
    """The two-word names in a clause ("draw pile"): adjacent content words."""
    tokens = [w for w in re.findall(r"[a-z']+", clause) if w not in STOPWORDS]
    return {f"{a} {b}" for a, b in zip(tokens, tokens[1:]) if a in words and b in words}


def _number_conflicts(decision: list[Sentence], rule: list[Sentence]) -> Iterator[tuple[str, str]]:
    rule_numbers: dict[tuple[str, ...], set[int]] = {}
    rule_sentence: dict[tuple[str, ...], str] = {}
    for sentence in rule:
        for frame, number in number_frames(sentence):
            rule_numbers.setdefault(frame, set()).add(number)
            rule_sentence.setdefault(frame, sentence.text)
    for sentence in decision:
        for frame, number in number_frames(sentence):
            if frame in rule_numbers and number not in rule_numbers[frame]:
                yield sentence.text, rule_sentence[frame]


def _moment_conflicts(decision: list[Sentence], rule: list[Sentence]) -> Iterator[tuple[str, str]]:
    rule_clauses = [(clause, words, sentence.text) for sentence in rule
                    for clause, words in trigger_clauses(sentence)]
    for sentence in decision:
        for clause, words in trigger_clauses(sentence):
            about = names(words, clause)
            same_thing = [(other, other_words, text) for other, other_words, text in rule_clauses
                          if about & names(other_words, other)]
            if same_thing and not any(len(words & other_words) / len(words | other_words) >= SAME_CLAUSE
                                      for _, other_words, _ in same_thing):
                yield sentence.text, same_thing[0][2]


def ruling_conflicts(deck: Deck, locate: Locator | None = None) -> list[Problem]:
    """A warning for each ruling whose decision states another number or moment than a rule it
    cites, in the same words around it."""
    locate = locate or Locator(deck)
    problems = []
    for index, ruling in enumerate(deck.rulings):
        decision = sentences(plain(ruling.decision, deck))
        for rule_id in ruling.rules:
            try:
                rule = deck.rule(rule_id)
            except KeyError:  # the loader reports a ruling citing no rule
                continue
            rule_sentences = sentences(plain(rule.text, deck))
            seen = set()
            for kind, conflicts in (("number", _number_conflicts(decision, rule_sentences)),
                                    ("moment", _moment_conflicts(decision, rule_sentences))):
                for said, stated in conflicts:
                    if (said, stated) in seen:
                        continue
                    seen.add((said, stated))
                    problems.append(_problem(locate, index, ruling, rule.number, rule_id, kind, said, stated))
    return problems


def _problem(locate: Locator, index: int, ruling: Ruling, number: str, rule_id: str, kind: str, said: str,
             stated: str) -> Problem:
    return locate.problem(
        f"rulings[{index}].decision",
        f"ruling {ruling.id} and rule {number} ({rule_id}) state a different {kind}: the ruling says "
        f"{said!r}, the rule says {stated!r}",
        hint="make the rule text and the ruling agree (one of them is out of date)", severity="warning")
