"""Every field a layout and its elements may have: names, meaning, allowed values.

One table serves the parser's checks (`parse`), the JSON Schema editors complete
from (`generator.deck.schema`) and the field reference in docs/layouts.md.
"""

from __future__ import annotations

ELEMENT_TYPES = ("text", "image", "shape", "icon", "pips", "index", "figure", "pattern")
ANCHORS = ("top-left", "top", "top-right", "left", "center", "right", "bottom-left", "bottom", "bottom-right")
FRAMES = ("trim", "bleed", "safe")

# name -> (description, JSON type or tuple of types, enum or None)
LENGTH = ("string", "number")
LAYOUT_FIELDS: dict[str, tuple[str, object, tuple | None]] = {
    "extends": ("Name of the layout this one starts from; its elements are inherited by name.", "string", None),
    "side": ("What the layout draws: a card face or a card back.", "string", ("face", "back")),
    "reference_size": ("[width, height] in mm the layout was drawn for; on other card sizes its mm/pt "
                       "lengths and font sizes scale by the smaller ratio (text never below 5 pt).", "array", None),
    "safe": ("Safe-area inset inside the trim, in mm (default 3).", "number", None),
    "remove": ("Names of inherited elements to drop.", "array", None),
    "elements": ("The elements, drawn in order (later ones on top).", "array", None),
    "description": ("What the layout is for (documentation only).", "string", None),
    "defaults": ("Values for every element of a type in this layout, inherited ones included, unless the "
                 "element sets them here: { text = { family = \"Garamond\", size = [11, 7] } }.", "object", None),
    "presets": ("Named sets of element fields an element takes with preset = \"NAME\" (its own fields win); "
                "a layout that extends this one can use them too.", "object", None),
}

COMMON = {
    "name": ("Element name: unique in the layout; an extending layout overrides or removes it by name.",
             "string", None),
    "type": ("What the element draws.", "string", ELEMENT_TYPES),
    "after": ("In an extending layout: insert this new element just after the named inherited one.",
              "string", None),
    "when": ("Draw only when a card field is present (\"corner\", \"!art\" for absent), a list of such "
             "tests, or a table of fields and the values they must equal ({ kind = \"recipe\" }).",
             ("string", "array", "object"), None),
    "unless": ("Skip the element when this condition holds (same forms as when).",
               ("string", "array", "object"), None),
    "frame": ("What x, y, width, height are measured from: trim (default), bleed edge or safe area.",
              "string", FRAMES),
    "x": ("Left position from the frame's left edge: mm as a number, or \"5mm\", \"4pt\", \"12%\".", LENGTH, None),
    "y": ("Top position from the frame's top edge (downwards), same units as x.", LENGTH, None),
    "width": ("Width, same units (\"100%\" = the frame's width; default 100%).", LENGTH, None),
    "height": ("Height, same units (default 100%).", LENGTH, None),
    "anchor": ("Which point of the element sits at (x, y).", "string", ANCHORS),
    "rotate": ("Turn the element clockwise about its box's centre by any angle, -360 to 360 degrees "
               "(90 and 270 lay the content out with width and height swapped).", "number", None),
    "mirrored": ("Draw it a second time turned half round the card's centre (playing-card corners).",
                 "boolean", None),
    "opacity": ("0 (invisible) to 1 (opaque).", ("number", "string"), None),
    "box": ("Shorthand for x, y, width and height: [x, y, width, height], each a length.", "array", None),
    "preset": ("Start from the fields of this preset of the layout (or of a layout it extends).", "string", None),
}

# Shadow and glow, for text and shapes: vector copies beneath the element (see-through ones when soft).
EFFECTS = {
    "shadow": ("Colour of a drop shadow: the element drawn again beneath itself, offset by shadow_offset.",
               "string", None),
    "shadow_offset": ("[right, down] offset of the shadow in pt (default [1.2, 1.2]).", "array", None),
    "shadow_blur": ("Softness of the shadow: how far beyond its outline its edge fades out, in pt (default 0, "
                    "a hard edge), or \"1mm\".", LENGTH, None),
    "glow": ("Colour of a glow: a halo of glow_width around the element, beneath it.", "string", None),
    "glow_width": ("How far the glow reaches beyond the outline, in pt (default 2.5), or \"1mm\".", LENGTH, None),
    "glow_blur": ("Softness of the glow: how far beyond glow_width its edge fades out, in pt (default 0, "
                  "a hard edge), or \"1mm\".", LENGTH, None),
}
GRADIENT_HINT = ("; or a gradient: linear(180deg, #rrggbb, #rrggbb 60%, ...) or radial(#rrggbb, #rrggbb, ...)")

TYPED = {
    "text": {
        "field": ("Card field to show: name, text, flavor, type_line, corner, code, props.X ...", "string", None),
        "text": ("A template instead of a field: \"{name} — {props.cost}\".", "string", None),
        "flavor": ("Template for an italic paragraph after a thin rule (flavour text).", "string", None),
        "family": ("Font family: serif, sans or a family from the deck's [[fonts]].", "string", None),
        "weight": ("regular or bold.", "string", ("regular", "bold")),
        "style": ("normal or italic.", "string", ("normal", "italic")),
        "size": ("Font size in pt, or [largest, smallest]: text shrinks to fit, and text that cannot fit "
                 "even at the smallest is an error.", ("number", "array"), None),
        "color": ("Text colour: #rrggbb, a variable such as \"{suit.color}\", or lighten/darken/mix/ink_on(...)"
                  + GRADIENT_HINT + ".", "string", None),
        "stroke": ("Colour of an outline around every letter (outside the letter, so it stays legible).",
                   "string", None),
        "stroke_width": ("Width of the letters' outline beyond their edge (pt as a number, or \"0.3mm\"; "
                         "default 0.6).", LENGTH, None),
        **EFFECTS,
        "align": ("Horizontal alignment.", "string", ("left", "center", "right")),
        "valign": ("Vertical alignment.", "string", ("top", "middle", "bottom")),
        "line_spacing": ("Line height as a multiple of the size (default 1.2).", "number", None),
        "max_lines": ("At most this many lines.", "integer", None),
        "transform": ("upper, lower, or stacked (one character a line).", "string", ("upper", "lower", "stacked")),
        "markup": ("Read the text as deckgen markup (default true).", "boolean", None),
        "typography": ("Curly quotes, en/em dashes and minus signs (default true).", "boolean", None),
        "rule_color": ("Colour of the rule above the flavour text.", "string", None),
        "badge": ("Colour of a pill drawn behind the text, as wide as the text, right-aligned in the box.",
                  "string", None),
    },
    "image": {
        "src": ("Image file (PNG, JPEG or SVG), relative to the layout's file, or \"{art}\" (the default): "
                "the card's art.", "string", None),
        "fit": ("cover (fill, crop what sticks out), contain (all of it, letterboxed) or stretch.", "string",
                ("cover", "contain", "stretch")),
        "clip": ("Clip to the box: rect, roundrect, ellipse or circle (the largest centred circle).", "string",
                 ("rect", "roundrect", "ellipse", "circle")),
        "mask": ("A PNG whose alpha channel masks the image (stretched over the box): opaque shows, "
                 "transparent hides. Relative to the layout's file.", "string", None),
        "tint": ("Colour the image is multiplied by (a grey picture becomes shades of it).", "string", None),
        "radius": ("Corner radius for clip = roundrect.", LENGTH, None),
        "bleed": ("Art drawn for the trim only gets bleed made for it when the element reaches the bleed "
                  "edge: mirror, extend (repeat the edge pixels) or color.", "string", ("mirror", "extend", "color")),
        "bleed_color": ("Colour for bleed = color.", "string", None),
    },
    "shape": {
        "shape": ("rect, roundrect, ellipse, line (top-left to bottom-right of the box), polygon or star.",
                  "string", ("rect", "roundrect", "ellipse", "line", "polygon", "star")),
        "fill": ("Fill colour (none when omitted)" + GRADIENT_HINT + ".", "string", None),
        "stroke": ("Outline colour (none when omitted).", "string", None),
        "stroke_width": ("Outline width (pt as a number, or \"0.3mm\").", LENGTH, None),
        "dash": ("Dash pattern [on, off] in pt.", "array", None),
        "radius": ("Corner radius for roundrect.", LENGTH, None),
        "points": ("Polygon corners as [[x%, y%], ...] of the box (0-100, y down).", "array", None),
        **EFFECTS,
    },
    "icon": {
        "icon": ("A designer icon from the deck's [icons] table.", "string", None),
        "glyph": ("A character drawn as a symbol, e.g. \"{suit.symbol}\".", "string", None),
        "color": ("Colour for a glyph or a one-colour icon.", "string", None),
        "family": ("Font family for a glyph.", "string", None),
        "weight": ("Weight for a glyph.", "string", ("regular", "bold")),
    },
    "pips": {
        "color": ("Pip colour (default \"{suit.color}\").", "string", None),
        "glyph": ("The pip (default \"{suit.symbol}\").", "string", None),
        "pip_size": ("Pip height (default 9.5% of the card's height).", LENGTH, None),
        "ace_size": ("Height of the single pip of an ace (default 30%).", LENGTH, None),
        "count": ("How many pips, 1 to 10 (default \"{rank.pips}\": from the rank's index).",
                  ("integer", "string"), None),
    },
    "index": {
        "label": ("The index label (default \"{rank.index}\").", "string", None),
        "glyph": ("The symbol under it (default \"{suit.symbol}\").", "string", None),
        "color": ("Colour (default \"{suit.color}\").", "string", None),
        "size": ("Label size in pt (default 19).", "number", None),
        "glyph_size": ("Symbol height (default 3.7 mm).", LENGTH, None),
        "family": ("Font family of the label.", "string", None),
    },
    "figure": {
        "figure": ("A drawn picture: court (J/Q/K by the rank's letter), wizard, jester (joker draws a "
                   "jester too), crest (a kind's emblem).", "string", ("court", "wizard", "jester", "joker", "crest")),
        "color": ("Main colour.", "string", None),
        "accent": ("Second colour.", "string", None),
        "glyph": ("A symbol worked into the picture (default none).", "string", None),
        "letter": ("For court: J, Q or K (\"{rank.letter}\"); for crest: the letter on it (\"{kind.initial}\").",
                   "string", None),
        "shape": ("For crest: shield, round, diamond or banner (\"{kind.crest}\" gives each kind its own).",
                  "string", None),
        "sky": ("For wizard: the background colour (default: a darker shade of color).", "string", None),
        "second": ("For jester: the second costume colour.", "string", None),
        "glyph_color": ("Colour of the glyph.", "string", None),
    },
    "pattern": {
        "pattern": ("diamonds, stripes, dots or waves (\"{back.pattern}\": the deck's).", "string", None),
        "color": ("Line colour.", "string", None),
        "step": ("Size of one repeat (pt, or \"4mm\").", LENGTH, None),
    },
}


def allowed_fields(element_type: str) -> dict:
    return {**COMMON, **TYPED.get(element_type, {})}


# Values an element of a type gets when the layout does not say.
DEFAULTS: dict[str, dict[str, object]] = {
    "image": {"src": "{art}"},
    "pips": {"glyph": "{suit.symbol}", "color": "{suit.color}", "count": "{rank.pips}"},
    "index": {"label": "{rank.index}", "glyph": "{suit.symbol}", "color": "{suit.color}"},
}
