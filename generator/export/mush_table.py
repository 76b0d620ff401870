"""The self-contained MUSH export: softcode that builds a deck object with a game table.

The pasted file creates one object with ``create()`` and keeps its dbref in an attribute of
the player pasting (``DECKGEN.DECK``): every later line addresses the object by that dbref,
never by name, so a second deck of the same name in the room changes nothing. When the
object cannot be created the dbref is ``#-1``, every later line does nothing, and the file
says so on the second line and again on the last.

Every attribute, card data and code alike, is written with ``set()`` through `escape_mush`,
many to a line, so that a 60-card deck is some 20 pasted lines: TinyMUX's default command
quota (a burst of 100 commands, then one a second) lets that through at once, where one
line per attribute took about three minutes. The code itself is in
``templates/mush/table.mushcode.j2`` (one ``NAME=value`` per line); the game's counters
and setup come from `setup.table_setup`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import jinja2

from ..core.resources import TEMPLATES
from .common import is_dvorak
from .mush import _check_line_lengths, _check_sendable, _copies, _is_command_pattern, _one_line, escape_mush
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


def card_label(card: "Card") -> str:
    """``Name (Type line, corner)``: what every list on the table shows for a card."""
    details = ", ".join(part for part in (card.type_line, card.corner) if part)
    return f"{card.name} ({details})" if details else card.name


@dataclass(frozen=True)
class Attribute:
    name: str
    value: str


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
    )


def table_code(setup: TableSetup) -> list[Attribute]:
    """The table's code attributes, in the template's order."""
    text = _code_environment().get_template("mush/table.mushcode.j2").render(
        counters=setup.counters, trick_game=setup.trick_game, turns_up_trump=setup.turns_up_trump)
    attributes = []
    for line in text.split("\n"):
        if line.strip():
            name, _equals, value = line.partition("=")
            attributes.append(Attribute(name, value))
    return attributes


def help_text(deck: "Deck", setup: TableSetup) -> str:
    counters = "\n".join(f"  {f'+{name} <n>':<22} set your {name}: 3 sets it, +2 adds, -1 takes away"
                         for name in setup.counters)
    play_to = ("to the centre (a trick)" if setup.trick_game else
               "face up in front of you (an Action: onto the discard pile)" if is_dvorak(deck)
               else "face up in front of you")
    lines = [
        f"The {deck.name} table ({deck.min_players}-{deck.max_players} players). Cards are named by number or name.",
        "  +sit / +stand          take a seat at the table / leave it (your cards go to the discard pile)",
        "  +table                 the cards in play, the piles, and every seated player's counters",
        "  +deal <n>              deal n cards to each seated player from the draw pile",
        "  +draw                  draw the top card of the draw pile",
        "  +hand                  the cards in your hand (only you see them)",
        "  +card <card>           read a card you can see",
        f"  +play <card>           play a card from your hand {play_to}",
        "  +play/centre <card>    play a card from your hand to the centre of the table",
        "  +take <card>           take a card you played back into your hand",
        "  +discard <card>        discard a card from your hand or from your cards in play",
        "  +destroy <card>        destroy a card in play: it goes to the discard pile",
        "  +give <card>=<player>  give a card from your hand to another seated player",
        "  +reveal                show your hand to the room",
        "  +shuffle               shuffle the discard pile into the draw pile",
    ]
    if setup.trick_game:
        lines += ["  +round <n>             a new round: shuffle every card, deal n to each player"
                  + (", turn up trump" if setup.turns_up_trump else ""),
                  "  +trick                 take the trick in the centre" +
                  (" (your tricks go up by 1)" if "tricks" in setup.counters else "")]
    lines += [counters,
              "  +reset                 a new game (the deck's owner, or more than half of the seated players)"]
    setup_cards = [f"{card.name} face up in the centre" for card in setup.centre]
    setup_cards += [f"{card.name} first on the discard pile" for card in setup.discard]
    if setup_cards:
        lines.append("Each new game starts as the rules say: " + "; ".join(setup_cards) + ".")
    lines.append("Only seated players act on the game; anyone can look at +table.")
    return "\n".join(lines)


def _setup_numbers(copies: list["Card"], setup_cards: tuple["Card", ...]) -> list[int]:
    """The copy number of the first copy of each setup card."""
    numbers = []
    for wanted in setup_cards:
        numbers.append(next(number for number, card in enumerate(copies, start=1) if card is wanted))
    return numbers


def deck_attributes(deck: "Deck", copies: list["Card"], setup: TableSetup) -> list[Attribute]:
    centre = _setup_numbers(copies, setup.centre)
    discard = _setup_numbers(copies, setup.discard)
    rest = [number for number in range(1, len(copies) + 1) if number not in centre + discard]
    numbers = " ".join(map(str, range(1, len(copies) + 1)))
    attributes = [Attribute("DECKNAME", deck.name), Attribute("COUNT", str(len(copies))),
                  Attribute("MAXSEATS", str(deck.max_players)), Attribute("CARDS", numbers),
                  Attribute("COUNTERS", " ".join(setup.counters)),
                  Attribute("SETUP.CENTRE", " ".join(map(str, centre))),
                  Attribute("SETUP.DISCARD", " ".join(map(str, discard))),
                  Attribute("SETUP.REST", " ".join(map(str, rest))),
                  Attribute("ACTIONS", " ".join(str(number) for number, card in enumerate(copies, start=1)
                                                if is_dvorak(deck) and card.kind == "action")),
                  Attribute("HELP", help_text(deck, setup))]
    for number, card in enumerate(copies, start=1):
        for field, value in (("NAME", card.name), ("LABEL", card_label(card)), ("TEXT", card.text),
                             ("FLAVOR", card.flavor)):
            if value:
                attributes.append(Attribute(f"CARD.{number}.{field}", value))
    return attributes


def _set_call(attribute: Attribute) -> str:
    call = f"[set(%qd,{attribute.name}:{escape_mush(attribute.value)})]"
    if _is_command_pattern(attribute.value) and not attribute.name.startswith("CMD."):
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


def render_softcode(deck: "Deck", cards: list["Card"], charset: str = "utf-8") -> str:
    """Softcode that creates the deck object, stores every card copy and the table's code,
    drops the object in the room and sets the game up as the rules say."""
    _check_sendable(deck, cards)
    copies = _copies(cards)
    setup = table_setup(deck)
    setup = TableSetup(  # the cards the export was given (plain text), not the deck's
        counters=setup.counters, phases=setup.phases, trick_game=setup.trick_game,
        turns_up_trump=setup.turns_up_trump,
        centre=tuple(card for wanted in setup.centre for card in cards if card.id == wanted.id),
        discard=tuple(card for wanted in setup.discard for card in cards if card.id == wanted.id))
    name = deck_object_name(deck)
    shown_name = escape_mush(deck.name)
    deck_check = f"and(isdbref(%qd),eq(words(get(%qd/CARDS)),{len(copies)}),hasattr(%qd,CMD.TABLE))"
    lines = [
        f"@@ {_one_line(deck.name)}: a deck of {len(copies)} cards and a game table for MUSH play, made by deckgen.",
        "@@ Paste into a MUD client while logged in as a character allowed to create objects (a builder).",
        f"@@ It creates an object named \"{name}\", drops it here and sets the game up; type +deckhelp.",
        "@@ Works on TinyMUX 2.12 and PennMUSH 1.8; see docs/mush.md.",
        ("@@ Text is UTF-8: let the client say so (telnet CHARSET, as Mudlet and TinTin++ do)."
         if charset == "utf-8" else "@@ Text is Latin-1 (ISO 8859-1): paste it from a client that sends Latin-1."),
        # QUIET while loading, so that each set() does not answer "Set."; restored at the end.
        "think [set(me,DECKGEN.QUIET:[hasflag(me,QUIET)])][set(me,QUIET)]",
        f"think [set(me,{NEW_OBJECT}:[create({escape_mush(name)},10)])]",
        # Deck text only through a register: the branches of ifelse() are evaluated twice.
        f"think [setq(n,{shown_name})][ifelse(isdbref(v({NEW_OBJECT})),Loading the %qn deck into [v({NEW_OBJECT})]...,"
        f"FAILED: could not create the deck object \\(see the message above\\)."
        f" Nothing will be loaded: the rest of this file does nothing.)]",
    ]
    attributes = deck_attributes(deck, copies, setup) + table_code(setup)
    lines += _packed_lines(attributes)
    lines += [
        f"think [setq(d,v({NEW_OBJECT}))][if(isdbref(%qd),[set(%qd,!NO_COMMAND)][set(%qd,QUIET)][tel(%qd,loc(me))]"
        f"[u(%qd/FN.RESET)])]",
        # Last: clear the helper attributes, restore QUIET, and say whether the deck is complete.
        f"think [setq(d,v({NEW_OBJECT}))][setq(q,v(DECKGEN.QUIET))][set(me,{NEW_OBJECT}:)][set(me,DECKGEN.QUIET:)]"
        f"[if(not(%qq),set(me,!QUIET))][setq(n,{shown_name})][ifelse({deck_check},Loaded the %qn deck as %qd:"
        f" {len(copies)} cards. Type +deckhelp.,FAILED: the %qn deck did not load completely.)]",
    ]
    output = "\n".join(lines) + "\n"
    _check_line_lengths(output)
    return output
