"""The self-contained MUSH export: softcode that builds a game table for a deck.

The pasted file creates one object with ``create()`` and keeps its dbref in an attribute of
the player pasting (``DECKGEN.DECK``): every later line addresses the object by that dbref,
never by name, so a second deck of the same name in the room changes nothing. After
``+table/update`` on a table, the owner's next paste of the same deck reloads that table
instead (refused while a game runs). When the object cannot be created the dbref is ``#-1``
and every later line does nothing; the file says so on its second line and again at the end.

Every attribute, card data and code alike, is written with ``set()`` through `escape_mush`,
many to a line, so that a 60-card deck is some 20 pasted lines: TinyMUX's default command
quota (a burst of 100 commands, then one a second) lets that through at once. The last line
drops the table in the room (``drop`` works in any room a player may drop things in, where
``tel()`` needs control of the room), locks it to its owner, and checks that it stands in the
player's room and is complete; otherwise it destroys the object and says why.

The code is in ``templates/mush/table*.mushcode.j2`` (one ``NAME=value`` per line); the data
attributes come from `mush_data`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import jinja2

from ..core.resources import TEMPLATES
from .mush import _check_line_lengths, _check_sendable, _copies, _is_command_pattern, _one_line, escape_mush
from .mush_data import (PUBLIC_ATTRIBUTES, TableData, card_label, check_card_sizes, deck_attributes,  # noqa: F401
                        table_base_name, table_data)
from .setup import TableSetup, table_setup

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

# Pasted lines are kept under this many bytes (TinyMUX cuts lines after 7991).
PACKED_LINE_BYTES = 7000
# The player attribute that holds the new object's dbref while the file is pasted.
NEW_OBJECT = "DECKGEN.DECK"
MAX_NAME_CHARACTERS = 100  # TinyMUX keeps object names of up to 399 characters

# TinyMUX 2.12 refuses ("That's a silly name for a thing!") a name with "&", "=", "|" or a
# no-break space anywhere, one that starts with "#", "*" or "!", and characters beyond Latin-1 (most of
# Latin Extended-A, Greek, symbols such as U+2215 and U+2660) - measured by creating an
# object for every code point; tests/export/test_export_mush_table.py repeats the check.
_REFUSED_IN_NAMES = frozenset("&=|\u00a0")
_REFUSED_FIRST = frozenset("#*!")


def _allowed_in_name(char: str) -> bool:
    return char not in _REFUSED_IN_NAMES and (" " <= char <= "~" or "\u00a0" <= char <= "\u00ff")


def _name_character(char: str) -> str:
    """`char` as a character of an object name: itself, without its accents, or a space."""
    if _allowed_in_name(char):
        return char
    stripped = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return stripped if stripped and all(map(_allowed_in_name, stripped)) else " "


def deck_object_name(deck: "Deck") -> str:
    """A name TinyMUX and PennMUSH accept for the deck object: ``<Deck name> Deck`` with every
    character they refuse spelled without accents or left out, on one line, at most 100
    characters. The deck's real name is kept in the object's DECKNAME attribute."""
    name = "".join(map(_name_character, unicodedata.normalize("NFC", deck.name)))
    name = " ".join(name.split()).lstrip("".join(_REFUSED_FIRST) + " ")
    name = name[:MAX_NAME_CHARACTERS - len(" Deck")].rstrip() or deck.id
    return name if name.lower().endswith(" deck") else f"{name} Deck"


@dataclass(frozen=True)
class Attribute:
    name: str
    value: str
    is_code: bool = False  # the table's own code; data that looks like a $-command is set no_command


@cache
def _code_environment() -> jinja2.Environment:
    # MUSH code is full of "{" and "%": Jinja's usual delimiters would clash with it.
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        block_start_string="<%", block_end_string="%>",
        variable_start_string="<<", variable_end_string=">>",
        comment_start_string="<#", comment_end_string="#>",
        keep_trailing_newline=True,  # each included template ends its last line
    )


def _routed(name: str, value: str) -> str:
    """A CMD.* command answered only by the table the player means (see FN.ROUTE)."""
    pattern, colon, body = value.partition(":")
    if not name.startswith("CMD.") or not colon:
        return value
    return f"{pattern}:@switch/first [u(FN.ROUTE,%#)]=0,@@,2,{{@pemit %#=[u(MSG.WHICH)]}},{{{body}}}"


def table_code(data: TableData) -> list[Attribute]:
    """The table's code attributes, in the templates' order, CMD.* commands routed."""
    text = _code_environment().get_template("mush/table.mushcode.j2").render(**data.template_context())
    attributes = []
    for line in text.split("\n"):
        if line.strip():
            name, _equals, value = line.partition("=")
            attributes.append(Attribute(name, _routed(name, value), is_code=True))
    names = [attribute.name for attribute in attributes]
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        raise AssertionError(f"the table templates define {', '.join(duplicated)} twice")
    return attributes


def _set_call(attribute: Attribute) -> str:
    call = f"[set(%qd,{attribute.name}:{escape_mush(attribute.value)})]"
    if _is_command_pattern(attribute.value) and not attribute.is_code:
        call += f"[set(%qd/{attribute.name},no_command)]"  # card text that looks like a $-command
    return call


def _packed_lines(attributes: list[Attribute]) -> list[str]:
    """``think`` lines that each set as many attributes as fit, and do nothing without the object."""
    # null(), not if(): the branches of if() are evaluated twice, which would undo the escapes;
    # without the object every set() fails quietly inside null().
    head, tail = f"think [setq(d,v({NEW_OBJECT}))][null(", ")]"
    lines: list[str] = []
    calls: list[str] = []
    frame = len(head.encode()) + len(tail.encode())
    size = frame
    for attribute in attributes:
        call = _set_call(attribute)
        if calls and size + len(call.encode()) > PACKED_LINE_BYTES:
            lines.append(head + "".join(calls) + tail)
            calls, size = [], frame
        calls.append(call)
        size += len(call.encode())
    if calls:
        lines.append(head + "".join(calls) + tail)
    return lines




def _setup_cards(setup: TableSetup, cards: list["Card"]) -> TableSetup:
    """The setup with the cards the export was given (plain text), not the deck's."""
    return TableSetup(
        counters=setup.counters, phases=setup.phases, trick_game=setup.trick_game,
        turns_up_trump=setup.turns_up_trump,
        centre=tuple(card for wanted in setup.centre for card in cards if card.id == wanted.id),
        discard=tuple(card for wanted in setup.discard for card in cards if card.id == wanted.id))


# Helper attributes on the pasting player, cleared by the last line.
_CLEANUP = ("[setq(q,v(DECKGEN.QUIET))][set(me,DECKGEN.DECK:)][set(me,DECKGEN.MODE:)]"
            "[set(me,DECKGEN.QUIET:)][if(not(%qq),set(me,!QUIET))]")


def _opening_lines(object_name: str, shown_name: str, base: str) -> list[str]:
    """Create the object, or take the table armed by +table/update, and say which.

    Escaped text goes only into registers at the top level of a line: inside a branch of
    switch() or ifelse() TinyMUX reads the escapes once too often (a comma in the deck's name
    would split create()'s arguments)."""
    armed = (f"first(trim(iter(lcon(loc(me)),if(and(strmatch(get(##/UPDATE.BY),num(me)),"
             f"strmatch(get(##/TABLEBASE),%qb)),##))))")
    return [
        # QUIET while loading, so that each set() does not answer "Set."; restored at the end.
        "think [set(me,DECKGEN.QUIET:[hasflag(me,QUIET)])][set(me,QUIET)]",
        f"think [setq(c,{object_name})][setq(b,{base})][setq(o,{armed})]"
        f"[set(me,DECKGEN.MODE:[ifelse(isdbref(%qo),ifelse(t(get(%qo/GAME)),busy,update),new)])]"
        f"[set(me,{NEW_OBJECT}:[switch(v(DECKGEN.MODE),new,create(%qc,10),update,%qo,#-1)])]",
        f"think [setq(n,{shown_name})][switch(v(DECKGEN.MODE),new,ifelse(isdbref(v({NEW_OBJECT})),"
        f"Loading the %qn deck into [v({NEW_OBJECT})]...,"
        f"FAILED: could not create the deck object \\(see the message above\\)."
        f" Nothing will be loaded: the rest of this file does nothing.),"
        f"update,Updating the %qn table [v({NEW_OBJECT})] with the new cards...,"
        f"FAILED: a game started at the %qn table since +table/update."
        f" Nothing will be changed: the rest of this file does nothing.)]",
        # An update first clears what the old export stored and the new one may not.
        f"think [setq(d,v({NEW_OBJECT}))][if(strmatch(v(DECKGEN.MODE),update),"
        f"[iter(lattr(%qd/CMD.*) [lattr(%qd/ADDR.*)] [lattr(%qd/TOPIC.*.TEXT)] [lattr(%qd/TOPIC.*.TITLE)]"
        f" [lattr(%qd/TOPIC.*.NUM)] [lattr(%qd/TOPIC.*.ID)],set(%qd,##:))]"
        + "".join(f"[iter(lattr(%qd/CARD.*.{field}),set(%qd,##:))]"
                  for field in ("NAME", "CODE", "KIND", "SUIT", "LABEL", "TEXT", "FLAVOR")) + ")]",
    ]


def _closing_line(count: int) -> str:
    """Place the new table (or finish an update), check it, and report; undo a table that failed.

    The actions of a @switch typed by a player evaluate attribute text once more, so they hold
    no deck text: the table itself says it is loaded (DO.LOADED), as its commands speak."""
    deck = f"v({NEW_OBJECT})"
    complete = f"and(isdbref({deck}),eq(words(get({deck}/CARDS)),{count}),hasattr({deck},CMD.TABLE))"
    flags = "".join(f"[set({deck}/{attribute},visual)]" for attribute in PUBLIC_ATTRIBUTES)
    loaded = (f"think [setq(d,{deck})][u(%qd/FN.RESET)][null(u(%qd/FN.PUBLIC,UPDATE.BY,))];"
              f"@trigger [{deck}]/DO.LOADED=[num(me)];think {_CLEANUP}")
    placed = (f"think [setq(d,{deck})]{flags}[set(%qd,!NO_COMMAND)][set(%qd,QUIET)]"
              f"[u(%qd/FN.PUBLIC,TABLENAME,first(filter(%qd/FN.FREE,u(%qd/FN.CANDIDATES))))];{loaded}")
    not_placed = ("think FAILED: the table could not be put down in this room \\(see the message above\\):"
                  f" it is destroyed again.;@destroy [{deck}];think {_CLEANUP}")
    return (
        f"@switch/first [v(DECKGEN.MODE)][{complete}]=new1,"
        f"{{drop [{deck}];@lock [{deck}]==[num(me)];"
        f"@switch/first [strmatch(loc({deck}),loc(me))]=1,{{{placed}}},{{{not_placed}}}}},"
        f"update1,{{{loaded}}},"
        f"new0,{{think FAILED: the deck did not load completely: the object is destroyed again.;"
        f"@destroy [{deck}];think {_CLEANUP}}},"
        f"{{think {_CLEANUP}}}"
    )


def _no_object_line() -> str:
    """Said at once when there is no object to check (queueing the last line may be refused too)."""
    return f"think [if(not(isdbref(v({NEW_OBJECT}))),FAILED: the deck did not load completely.)]"


def render_softcode(deck: "Deck", cards: list["Card"], charset: str = "utf-8") -> str:
    """Softcode that creates the deck object, stores every card copy, the rules and the table's
    code, drops the object in the room, locks it to its owner and sets the game up as the rules say."""
    _check_sendable(deck, cards)
    check_card_sizes(deck, cards)
    copies = _copies(cards)
    setup = _setup_cards(table_setup(deck), cards)
    name = deck_object_name(deck)
    lines = [
        f"@@ {_one_line(deck.name)}: a deck of {len(copies)} cards and a game table for MUSH play, made by deckgen.",
        "@@ Paste into a MUD client while logged in as a character allowed to create objects (a builder).",
        f"@@ It creates an object named \"{name}\", drops it here and sets the game up; type +deckhelp.",
        "@@ Works on TinyMUX 2.12 and PennMUSH 1.8; see docs/mush.md.",
        ("@@ Text is UTF-8: let the client say so (telnet CHARSET, as Mudlet and TinTin++ do)."
         if charset == "utf-8" else "@@ Text is Latin-1 (ISO 8859-1): paste it from a client that sends Latin-1."),
    ]
    lines += _opening_lines(escape_mush(name), escape_mush(deck.name), escape_mush(table_base_name(deck)))
    attributes = [Attribute(attribute_name, value) for attribute_name, value in deck_attributes(deck, copies, setup)]
    attributes += table_code(table_data(deck, setup))
    lines += _packed_lines(attributes)
    lines += [_no_object_line(), _closing_line(len(copies))]
    output = "\n".join(lines) + "\n"
    _check_line_lengths(output)
    return output
