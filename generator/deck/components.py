"""Components beyond cards in the deck file: `[tuck_box]` and `[[tokens]]`.

Their JSON Schema (merged into the deck's, generator.deck.schema) and the reading of them into
the model's `TuckBox` and `Token`. A token is drawn by a layout like a card face, so its
`layout` must name one the deck can use; that and its `kind` are checked here, with the
deck's other load-time checks (generator.printing.tokens and .tuckbox draw them).
"""

from __future__ import annotations

from typing import Any, Callable

from .cardids import slug
from .model import Token, TuckBox
from .palettes import COLOR_PATTERN, resolve

TOKEN_SHAPES = ("circle", "square")
MAX_TOKEN_COUNT = 500

TUCK_BOX_SCHEMA: dict = {
    "type": "object",
    "description": "The deck's tuck box (`deckgen tuckbox DECK`): its size comes from the card size and count.",
    "properties": {
        "stock_mm": {"type": "number", "minimum": 0.1, "maximum": 1.5,
                     "description": "One card's thickness in mm (default 0.32: 300 gsm card stock)."},
        "clearance_mm": {"type": "number", "minimum": 0, "maximum": 10,
                         "description": "Room around the cards on each side in mm (default 1.5)."},
        "title": {"type": "string", "maxLength": 200, "description": "Title on the front and lid (default the deck's name)."},
        "subtitle": {"type": "string", "maxLength": 200,
                     "description": "Line below the title (default players and play time)."},
    },
    "additionalProperties": False,
}

TOKEN_SCHEMA: dict = {
    "type": "object",
    "description": "A token or counter, drawn by a layout (default the built-in `token`) like a card face.",
    "properties": {
        "id": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9._-]*$", "maxLength": 64,
               "description": "Stable identifier (default from the name)."},
        "name": {"type": "string", "maxLength": 200, "description": "The token's name (the layout's {name})."},
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_TOKEN_COUNT, "description": "How many to print."},
        "shape": {"type": "string", "enum": list(TOKEN_SHAPES), "description": "circle (default) or square."},
        "size_mm": {"type": "number", "minimum": 10, "maximum": 120,
                    "description": "Diameter or side in mm (default 25)."},
        "text": {"type": "string", "maxLength": 2000, "description": "Text (the layout's {text})."},
        "color": {"type": "string", "pattern": COLOR_PATTERN,
                  "description": "Colour (the layout's {props.color}; default its kind's colour)."},
        "kind": {"type": "string", "maxLength": 64, "description": "A kind of the deck (its colour, {kind.name})."},
        "layout": {"type": "string", "maxLength": 64, "description": "The layout that draws it (default token)."},
        "props": {"type": "object", "description": "Further values its layout names as {props.NAME}."},
    },
    "required": ["name"],
    "additionalProperties": False,
}

Report = Callable[..., None]  # the loader's error(field, message, hint=None, severity="error")


def read_tuck_box(data: dict) -> TuckBox:
    raw = data.get("tuck_box", {})
    return TuckBox(float(raw.get("stock_mm", 0.32)), float(raw.get("clearance_mm", 1.5)),
                   raw.get("title", ""), raw.get("subtitle", ""))


def read_tokens(data: dict, kinds: list[str], layouts: Any, error: Report) -> tuple[Token, ...]:
    """The deck's tokens; an unknown kind or layout, or a repeated id, is reported at its field."""
    tokens: list[Token] = []
    for index, raw in enumerate(data.get("tokens", ())):
        where = f"tokens[{index}]"
        token_id = raw.get("id") or slug(raw["name"]) or f"token-{index + 1}"
        kind, layout = raw.get("kind", ""), raw.get("layout", "token")
        if kind and kind not in kinds:
            error(f"{where}.kind", f"unknown kind {kind!r}; known: {', '.join(kinds)}")
        if layouts is not None and layouts.get(layout) is None:
            error(f"{where}.layout", f"unknown layout {layout!r}",
                  hint="name a layout of the deck's [layouts] or a built-in one (`deckgen layout list DECK`)")
        if any(token.id == token_id for token in tokens):
            error(f"{where}.id", f"a second token with the id {token_id!r}", hint="give each token its own id")
        tokens.append(Token(token_id, raw["name"], raw.get("count", 1), raw.get("shape", "circle"),
                            float(raw.get("size_mm", 25.0)), raw.get("text", ""), resolve(raw.get("color", "")),
                            kind, layout, dict(raw.get("props", {}))))
    return tuple(tokens)

