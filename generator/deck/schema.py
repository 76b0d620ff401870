"""The deck format as a JSON Schema, and a small checker for the subset it uses.

The schema is the one source of truth for the structure of a deck file:
`deckgen schema` prints it for editors (Taplo / Even Better TOML), and the
loader checks every file against it before it checks meaning (references,
duplicates, counts).
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterator

from .files import MAX_DECK_BYTES  # noqa: F401 (a limit listed here with the others)
from .layouts.fields import COMMON, ELEMENT_TYPES, LAYOUT_FIELDS, TYPED
from .components import TOKEN_SCHEMA, TUCK_BOX_SCHEMA
from .model import CARD_SIZES_MM, SECTION_ROLES
from .palettes import COLOR_PATTERN
from .trickrules.schema import RULES

ID_PATTERN = r"^[a-z0-9][a-z0-9._-]*$"

# Limits no real deck comes near; past them a deck would exhaust memory or the file system
# (docs/deck-format.md lists them).
MAX_COPIES = 10_000  # copies of one card
MAX_DECK_CARDS = 100_000  # cards in the whole deck, copies counted
MAX_TEXT = 20_000  # characters in one text field
MAX_ID = 64  # characters in an id (ids become file names)
MIN_CARD_MM, MAX_CARD_MM = 10, 1000  # each side of a custom card size
MAX_PLAYERS = 100  # at one table
MAX_NUMBER = 1_000_000_000  # any other whole number


def _str(description: str, **extra: Any) -> dict:
    return {"type": "string", "description": description, "maxLength": MAX_TEXT, **extra}


def _int(description: str, minimum: int | None = None, maximum: int = MAX_NUMBER) -> dict:
    schema: dict[str, Any] = {"type": "integer", "description": description, "maximum": maximum}
    if minimum is not None:
        schema["minimum"] = minimum
    return schema


def _table(description: str, properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


def _list_of(description: str, item: dict) -> dict:
    return {"type": "array", "description": description, "items": item}


_ID = _str("Stable identifier: lower case letters, digits, '.', '_' or '-'.", pattern=ID_PATTERN, maxLength=MAX_ID)
_TEXT = _str("Text in deckgen's light markup: *emphasis*, **strong**, '- ' lists, "
             "{card:NAME}, {suit:ID}, {rule:ID}, {icon:NAME}.")
_LAYOUT = _str("Name of the face layout that draws these cards (a built-in one such as text, "
               "playing, picture, or one of [layouts]).")
_BACK_LAYOUT = _str("Name of the back layout for these cards (default: back).")

SUIT = _table(
    "A suit.",
    {
        "id": _ID,
        "name": _str("Display name, e.g. 'Hearts'."),
        "symbol": _str("The symbol drawn on cards, e.g. '♥'."),
        "code": _str("Letter(s) that end a card code, e.g. 'H' in '7H'.", pattern=r"^[A-Za-z]{1,3}$"),
        "color": _str("Colour as #rrggbb or a palette colour such as okabe-ito.blue.", pattern=COLOR_PATTERN),
        "opposite": _str("Id of the suit paired against this one, if the game pairs suits."),
        "description": _TEXT,
        "layout": _LAYOUT,
    },
    ("id", "name", "symbol", "code", "color"),
)

RANK = _table(
    "A rank. List ranks from lowest to highest: the order is the rank order.",
    {
        "id": _ID,
        "name": _str("Display name, e.g. 'Queen'."),
        "code": _str("Start of a card code, e.g. 'Q' in 'QD'.", pattern=r"^[A-Za-z0-9]{1,3}$"),
        "value": _int("Numeric value the game uses (a number card's face value)."),
        "kind": _str("Kind id that cards of this rank get in a card set."),
        "index": _str("Corner index label; defaults to the code."),
        "layout": _LAYOUT,
    },
    ("id", "name", "code"),
)

KIND = _table(
    "A card kind or type: Thing, Action, Seeker, Wizard, Jester, Joker...",
    {
        "id": _ID,
        "name": _str("Display name, used as the type line unless a card gives its own."),
        "description": _TEXT,
        "color": _str("Frame colour for cards of this kind, #rrggbb.", pattern=COLOR_PATTERN),
        "layout": _LAYOUT,
        "back_layout": _BACK_LAYOUT,
    },
    ("id", "name"),
)

CARD = _table(
    "One distinct card; 'count' says how many copies the deck holds.",
    {
        "id": {**_ID, "description": "Stable identifier naming the card's files (images/<id>.png) and export "
                                     "entries; defaults to the code in lower case ('JK' -> 'jk'), not the "
                                     "name, so a renamed card keeps its files."},
        "name": _str("Card title."),
        "code": _str("Short code used in game logs and on the command line (unique, any case).",
                     pattern=r"^[A-Za-z0-9+-]{1,8}$"),
        "kind": _str("Kind id."),
        "type_line": _str("Type line printed on the card; defaults to the kind's name."),
        "suit": _str("Suit id, where the card has a suit."),
        "rank": _str("Rank id, where the card has a rank."),
        "corner": _str("Corner value or badge, e.g. '+4/2/1'."),
        "text": _TEXT,
        "flavor": _str("Flavour text, printed in italics."),
        "count": _int("Copies in the deck.", minimum=1, maximum=MAX_COPIES),
        "art": _str("Image file, relative to the deck file's folder."),
        "props": {"type": "object", "description": "Facts the game engine reads (speed, role...)."},
        "ruling": _str("Id of a ruling that decided something about this card."),
        "layout": _str("This card's own face layout (overrides its rank's, suit's, kind's and the deck's)."),
        "back_layout": _str("This card's own back layout."),
    },
    ("name", "code", "kind"),
)

CARD_SET = _table(
    "Generates one card per suit × rank, instead of listing them by hand.",
    {
        "suits": _list_of("Suit ids; all suits when omitted.", _str("Suit id.")),
        "ranks": _list_of("Rank ids; all ranks when omitted.", _str("Rank id.")),
        "kind": _str("Kind id; defaults to each rank's kind."),
        "count": _int("Copies of each generated card.", minimum=1, maximum=MAX_COPIES),
        "text": _TEXT,
    },
)

CARD_SOURCE = _table(
    "Cards read from a spreadsheet next to the deck file: one card per row (docs/spreadsheets.md).",
    {
        "file": _str("A .csv, .tsv or .xlsx file, relative to the deck file's folder."),
        "sheet": _str("The worksheet of an .xlsx file; the first one when omitted."),
        "delimiter": _str("CSV field separator, e.g. ';'; guessed from the header row when omitted."),
        "columns": {"type": "object", "description": "Card field (or props.NAME) -> column heading, "
                                                     "for columns not named after card fields.",
                    "additionalProperties": {"type": "string"}},
        "defaults": {"type": "object", "description": "Card fields for rows whose cell is empty or "
                                                      "whose sheet has no such column, e.g. kind = 'action'."},
    },
    ("file",),
)

RULE = _table(
    "One numbered rule.",
    {"id": _ID, "title": _str("Heading."), "text": _TEXT},
    ("id", "title", "text"),
)

SECTION = _table(
    "A numbered rulebook section holding rules.",
    {
        "id": _ID,
        "title": _str("Heading."),
        "role": _str("What the section covers.", enum=list(SECTION_ROLES)),
        "text": _TEXT,
        "rules": _list_of("The section's rules, in order.", RULE),
    },
    ("id", "title", "role"),
)

RULING = _table(
    "A ruling of this edition: a gap in the source rules, closed explicitly.",
    {
        "id": _ID,
        "question": _str("What the source text leaves open."),
        "decision": _TEXT,
        "reason": _str("Why this decision."),
        "rules": _list_of("Ids of the rules this ruling settles.", _str("Rule id.")),
        "cards": _list_of("Names or codes of the cards it concerns.", _str("Card name or code.")),
    },
    ("id", "question", "decision", "reason"),
)

VARIANT = _table(
    "An optional rule set: a name, its text and the engine parameters it changes.",
    {
        "id": _ID,
        "name": _str("Display name."),
        "text": _TEXT,
        "params": {"type": "object", "description": "Engine parameters this variant sets."},
    },
    ("id", "name", "text"),
)

PLAYER_PATTERN = r"^[a-z][a-z0-9_-]*$"  # random, heuristic, and search players with a budget: ismcts-800
_PLAYER_COUNTS = _list_of("Player counts these targets are for (default: every count the deck allows).",
                          _int("A player count.", 1, MAX_PLAYERS))


def _band(description: str, item: dict) -> dict:
    return {**_list_of(description, item), "minItems": 2, "maxItems": 2}


SKILL_TARGET = _table(
    "A skill gap: in games with one `player` seat (a different seat each game) and `beats` in every other, "
    "`player` finishes ahead of each other seat at least `at_least` of the time (a tie counts half).",
    {
        "player": _str("The stronger player, as `deckgen simulate --bot` names it (random, heuristic; a search "
                       "player with its budget, e.g. ismcts-800).", pattern=PLAYER_PATTERN, maxLength=MAX_ID),
        "beats": _str("The weaker player, named the same way.", pattern=PLAYER_PATTERN, maxLength=MAX_ID),
        "at_least": {"type": "number", "description": "The least share of other seats `player` finishes ahead "
                     "of, e.g. 0.6.", "minimum": 0, "maximum": 1},
        "players": _PLAYER_COUNTS,
    },
    ("player", "beats", "at_least"),
)

PLAYTEST = _table(
    "Targets the simulated playtest should meet; `deckgen validate` says which hold, with intervals, and "
    "`--compare` which variant moves toward them.",
    {
        "players": _PLAYER_COUNTS,
        "first_seat_win": _band("[low, high]: the band seat 1's share of wins should lie in (a shared win "
                                "counts for every winner).", {"type": "number", "minimum": 0, "maximum": 1}),
        "median_length": _band("[low, high]: the band the median moves (player decisions) per game should lie in.",
                               _int("Moves per game.", 1)),
        "timeouts_below": {"type": "number", "description": "The share of games the engine's length cap may stop "
                           "at most, e.g. 0.01.", "minimum": 0, "maximum": 1},
        "skill": _list_of("Skill gaps between players.", SKILL_TARGET),
    },
)

QUICKREF = _table(
    "An entry of the one-page quick reference.",
    {"title": _str("Heading."), "text": _TEXT},
    ("title", "text"),
)

DECK_META = _table(
    "Who and what the deck is.",
    {
        "id": _ID,
        "name": _str("The game's name."),
        "version": _str("Edition of this deck file."),
        "date": _str("Release date of this edition, YYYY-MM-DD: the date LackeyCCG's auto-update compares "
                     "(default: the version when it is a date, else the deck file's last change).",
                     pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"),
        "designer": _str("Designer of the game."),
        "credits": _list_of("Further credits, one line each.", _str("A credit line.")),
        "description": _TEXT,
        "players": {
            "type": "object",
            "description": "Player range.",
            "properties": {"min": _int("Fewest players.", 1, MAX_PLAYERS), "max": _int("Most players.", 1, MAX_PLAYERS)},
            "required": ["min", "max"],
            "additionalProperties": False,
        },
        "play_time": _str("Typical playing time, e.g. '45 minutes'."),
        "version_mark": {"type": "boolean", "description": "Fill layouts' {version_mark} with \"v<version> · "
                         "<card code>\" (default false: empty), to tell print runs apart."},
        "language": _str("The language the deck is written in, as a BCP 47 tag (en, en-GB, de, fr-CA); "
                         "it chooses the rulebook's hyphenation. Default: en.",
                         pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$"),
        "card_size": {
            "description": "A named size or width/height in millimetres.",
            "oneOf": [
                _str("A named size.", enum=list(CARD_SIZES_MM)),
                {
                    "type": "object",
                    "properties": {
                        "width_mm": {"type": "number", "minimum": MIN_CARD_MM, "maximum": MAX_CARD_MM},
                        "height_mm": {"type": "number", "minimum": MIN_CARD_MM, "maximum": MAX_CARD_MM},
                    },
                    "required": ["width_mm", "height_mm"],
                    "additionalProperties": False,
                },
            ],
        },
        "layout": _str("Default face layout (default: chosen by what each card has)."),
        "back_layout": _BACK_LAYOUT,
        "layouts": _list_of("Shared layouts files ([layouts.NAME] tables), relative to this file.",
                            _str("A .toml file.")),
        "engine": _str("Game engine that referees this deck: one of deckgen's own or one an installed "
                       "package registers (`deckgen engines` lists them; docs/engines.md). Leave it out "
                       "for a deck with [rules], which deckgen's rules engine plays."),
    },
    ("id", "name", "players"),
)

BACK = _table(
    "The card back, shared by every card.",
    {
        "title": _str("Large text on the back; defaults to the deck name."),
        "subtitle": _str("Small text under the title."),
        "pattern": _str("Background pattern.", enum=["diamonds", "stripes", "dots", "waves"]),
        "color": _str("Main colour, #rrggbb.", pattern=COLOR_PATTERN),
        "accent": _str("Pattern colour, #rrggbb.", pattern=COLOR_PATTERN),
    },
)

PUBLISH = _table(
    "Where the built outputs will be served from.",
    {
        "base_url": _str("http(s) address of the output folder once published: Lackey auto-update files "
                         "and Tabletop Simulator image URLs point there. `deckgen build --base-url` overrides it."),
    },
)


def _field_schema(spec: tuple) -> dict:
    description, types, choices = spec
    types = types if isinstance(types, tuple) else (types,)
    schema: dict = {"description": description}
    schema["type"] = list(types) if len(types) > 1 else types[0]
    if choices:
        schema["enum"] = list(choices)
    return schema


def _element_properties() -> dict:
    """Every element field; a name that several element types use (size) takes all their types."""
    properties: dict = {}
    for group in (COMMON, *TYPED.values()):
        for name, spec in group.items():
            schema = _field_schema(spec)
            if name in properties:
                known = properties[name]
                types = list(dict.fromkeys(_as_list(known["type"]) + _as_list(schema["type"])))
                known["type"] = types if len(types) > 1 else types[0]
                if "enum" in known and "enum" in schema:
                    known["enum"] = list(dict.fromkeys(known["enum"] + schema["enum"]))
                else:
                    known.pop("enum", None)
            else:
                properties[name] = schema
    return properties


def _as_list(types: str | list) -> list:
    return types if isinstance(types, list) else [types]


ELEMENT = {
    "type": "object",
    "description": "One thing a layout draws; see docs/layouts.md. Fields depend on the type.",
    "properties": _element_properties(),
    "required": ["name"],
}
ELEMENT["properties"]["type"]["enum"] = list(ELEMENT_TYPES)

LAYOUT = {
    "type": "object",
    "description": "A card layout: named elements drawn in order, optionally extending another layout.",
    "properties": {**{name: _field_schema(spec) for name, spec in LAYOUT_FIELDS.items()},
                   "elements": _list_of("The elements, drawn in order (later on top).", ELEMENT)},
}

FONT = _table(
    "A font family of the deck's own (TrueType .ttf/.otf files next to the deck), embedded and subset.",
    {
        "family": _str("The name layouts use in family = \"...\"."),
        "regular": _str("Regular style file."),
        "bold": _str("Bold style file."),
        "italic": _str("Italic style file."),
        "bolditalic": _str("Bold italic style file."),
    },
    ("family", "regular"),
)

DECK_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://deckgen.invalid/deck.schema.json",
    "title": "deckgen deck",
    "description": "A card game's deck, rules and rulings, written once for every output.",
    "type": "object",
    "properties": {
        "deck": DECK_META,
        "back": BACK,
        "publish": PUBLISH,
        "suits": _list_of("Suits.", SUIT),
        "ranks": _list_of("Ranks, lowest first.", RANK),
        "kinds": _list_of("Card kinds.", KIND),
        "card_sets": _list_of("Suit × rank card sets.", CARD_SET),
        "cards": _list_of("Cards listed one by one.", CARD),
        "card_sources": _list_of("Spreadsheets (CSV, XLSX) holding cards, one per row.", CARD_SOURCE),
        "sections": _list_of("Rulebook sections.", SECTION),
        "rulings": _list_of("This edition's rulings.", RULING),
        "engine": {"type": "object", "description": "Engine parameters and their values (for a deck with "
                   "[rules]: the parameters its rules and variants read as $name)."},
        "rules": RULES,
        "variants": _list_of("Variants.", VARIANT),
        "playtest": PLAYTEST,
        "quickref": _list_of("Quick reference entries.", QUICKREF),
        "layouts": {"type": "object", "description": "The deck's own layouts, by name.",
                    "additionalProperties": LAYOUT},
        "fonts": _list_of("The deck's own fonts.", FONT),
        "tuck_box": TUCK_BOX_SCHEMA,
        "tokens": _list_of("Tokens and counters, printed on sheets by `deckgen tokens DECK`.", TOKEN_SCHEMA),
        "icons": {"type": "object", "description": "Icons by name: a PNG/JPEG/SVG file, or "
                  "{ file = \"...\", tint = true } for a one-colour icon painted in the text's colour.",
                  "additionalProperties": {"type": ["string", "object"]}},
    },
    "required": ["deck", "kinds"],
    "additionalProperties": False,
}

_PY_TYPES = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "array": list,
    "object": dict,
}


def type_name(value: Any) -> str:
    for name, py_type in _PY_TYPES.items():
        if isinstance(value, py_type) and not (name in ("integer", "number") and isinstance(value, bool)):
            return name
    return type(value).__name__


def check(value: Any, schema: dict, path: str = "") -> Iterator[tuple[str, str]]:
    """Yield (field path, message) for every way `value` breaks `schema`."""
    if "oneOf" in schema:
        options = schema["oneOf"]
        if not any(not list(check(value, option, path)) for option in options):
            allowed = " or ".join(_describe(option) for option in options)
            yield path, f"found {_show(value)}; allowed: {allowed}"
        return
    wanted = schema.get("type")
    if isinstance(wanted, list):  # one of several types: check against the one the value has
        found = type_name(value)
        match = found if found in wanted else "number" if found == "integer" and "number" in wanted else None
        if match is None:
            yield path, f"expected {' or '.join(wanted)}, found {found} {_show(value)}"
            return
        wanted = match
    if wanted and type_name(value) != wanted and not (wanted == "number" and type_name(value) == "integer"):
        yield path, f"expected {wanted}, found {type_name(value)} {_show(value)}"
        return
    if isinstance(value, float) and not math.isfinite(value):
        yield path, f"must be a finite number, found {value}"
        return
    if "enum" in schema and value not in schema["enum"]:
        yield path, f"unknown value {_show(value)}; allowed: {', '.join(map(str, schema['enum']))}"
    if "minimum" in schema and value < schema["minimum"]:
        yield path, f"must be at least {schema['minimum']}, found {value}"
    if "maximum" in schema and value > schema["maximum"]:
        yield path, f"must be at most {schema['maximum']:,}, found {value:,}"
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        yield path, f"is {len(value):,} characters long; the limit is {schema['maxLength']:,}"
        return
    if "pattern" in schema:
        if not re.fullmatch(schema["pattern"].strip("^$"), value):
            yield path, f"{_show(value)} does not match {schema['pattern']}"
    if wanted == "object":
        properties = schema.get("properties")
        for key in schema.get("required", ()):
            if key not in value:
                yield _join(path, key), "required field is missing"
        if properties is not None and schema.get("additionalProperties") is False:
            for key in value:
                if key not in properties:
                    yield _join(path, key), f"unknown field; allowed: {', '.join(properties)}"
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if properties and key in properties:
                yield from check(item, properties[key], _join(path, key))
            elif isinstance(extra, dict):
                yield from check(item, extra, _join(path, key))
    elif wanted == "array":
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            low, high = schema.get("minItems", 0), schema.get("maxItems")
            wanted_count = f"exactly {low}" if low == high else f"at least {low}" if high is None else f"{low} to {high}"
            yield path, f"has {len(value)} value{'s' if len(value) != 1 else ''}; write {wanted_count}"
        for index, item in enumerate(value if "items" in schema else ()):
            yield from check(item, schema["items"], f"{path}[{index}]")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _describe(schema: dict) -> str:
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    if schema.get("type") == "object":
        return "a table with " + ", ".join(schema.get("required", []))
    return schema.get("type", "a value")
