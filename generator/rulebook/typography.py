"""The rulebook's punctuation as a typesetter sets it: curly quotes and apostrophes, en dashes
in number ranges ("45–60"), true minus signs ("−10").

Applied to the deck's prose as every rulebook format renders it, never to what a reader
types or matches: ids, card codes and referee options keep their ASCII. In markup, the text
inside `{...}` references is left alone, so `{card:Sandy's Broom}` still names its card.
"""

from __future__ import annotations

import re

# A number range: digits, a hyphen, digits ("45-60", "2-6"), not part of a longer chain such as a
# date ("2001-04-09") or a code ("A-1-2").
_RANGE = re.compile(r"(?<![\w.-])(\d+(?:[.,]\d+)?)-(\d+(?:[.,]\d+)?)(?![\w-])")
# A negative number: a hyphen after a space, an opening bracket, emphasis or the start, before a
# digit ("-10", "(-2)", "**-2**").
_MINUS = re.compile(r"(?:(?<=^)|(?<=[\s(\[/:*]))-(?=\d)")
# An apostrophe inside or at the end of a word ("don't", "players'", "’90s" is left as typed).
_APOSTROPHE = re.compile(r"(?<=\w)'")
_OPENING_SINGLE = re.compile(r"(?:(?<=^)|(?<=[\s(\[{“\"—–*-]))'")
_OPENING_DOUBLE = re.compile(r"(?:(?<=^)|(?<=[\s(\[{‘—–*-]))\"")
# Markup references keep their words exactly: they name cards, rules and suits.
_REFERENCE = re.compile(r"\{[a-z]+:[^{}]*\}")


def smarten(text: str) -> str:
    """Plain prose with typographer's quotes, en dashes in ranges and minus signs."""
    text = _RANGE.sub("\\1\u2013\\2", text)
    text = _MINUS.sub("\u2212", text)
    text = _APOSTROPHE.sub("\u2019", text)
    text = _OPENING_SINGLE.sub("\u2018", text)
    text = text.replace("'", "\u2019")
    text = _OPENING_DOUBLE.sub("\u201c", text)
    return text.replace('"', "\u201d")


def smarten_markup(text: str) -> str:
    """Deck markup with its prose smartened and its `{kind:target}` references untouched.

    Each reference is replaced by a placeholder word while the prose is smartened, so a quote
    right after a reference ("{card:Seeker}'s") still reads as an apostrophe."""
    references: list[str] = []

    def hold(match: re.Match) -> str:
        references.append(match.group(0))
        return f"\ue000{len(references) - 1}\ue001"

    held = _REFERENCE.sub(hold, text)
    # The placeholder stands for a word: "x" makes an apostrophe after it read as one.
    smart = smarten(held.replace("\ue001", "x\ue001"))
    return re.sub("\ue000(\\d+)x\ue001", lambda match: references[int(match.group(1))], smart)
