"""The preview page: one HTML file with its style and script inline, so it needs nothing from
outside (it works offline), built from `templates/preview/`.

The page draws itself from the state embedded in it and then from each update the server
pushes: it swaps only the pictures whose content hash changed. A toggle shows the cards as
readers with protanopia, deuteranopia or tritanopia see them (SVG filters with the validator's
matrices, generator.validate.colourvision).
"""

from __future__ import annotations

from markupsafe import Markup

from ..core.localweb import page_template, script_json
from ..core.resources import TEMPLATES as SHIPPED_TEMPLATES
from ..validate.colourvision import MACHADO

TEMPLATES = SHIPPED_TEMPLATES / "preview"


def vision_filters() -> dict[str, str]:
    """The colour-vision toggle's SVG feColorMatrix values: the validator's Machado 2009 matrices,
    which SVG filters apply in linear RGB (their default colour space), as the model asks."""
    return {vision: " ".join(f"{value:g}" for row in matrix for value in (*row, 0, 0)) + " 0 0 0 1 0"
            for vision, matrix in MACHADO.items()}


def page_html(state: dict) -> str:
    title = state["deck"]["name"] if state.get("deck") else "deckgen preview"
    return page_template(TEMPLATES, "page.html.j2").render(title=title, state=Markup(script_json(state)),
                                                            links=state.get("links", []), visions=vision_filters())
