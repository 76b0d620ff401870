"""Punctuation as a typesetter sets it: curly quotes and apostrophes, en dashes in number
ranges ("45–60"), true minus signs ("−10").

Applied to the deck's prose as every rulebook format renders it, and to what boxes print, never to what a reader
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
    """Deck markup with its prose smartened and its `{...}` references and figures untouched
    (a figure's caption is smartened when it is written, so the figure keeps its identity).

    Each outermost `{...}` is replaced by a placeholder word while the prose is smartened, so a
    quote right after a reference ("{card:Seeker}'s") still reads as an apostrophe."""
    held: list[str] = []
    out: list[str] = []
    depth, start = 0, 0
    for index, char in enumerate(text):
        if char == "{":
            if depth == 0:
                out.append(text[start:index])
                start = index
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                held.append(text[start:index + 1])
                out.append(f"\ue000{len(held) - 1}x\ue001")  # "x": it stands for a word
                start = index + 1
    out.append(text[start:])
    smart = smarten("".join(out))
    return re.sub("\ue000(\\d+)x\ue001", lambda match: held[int(match.group(1))], smart)
