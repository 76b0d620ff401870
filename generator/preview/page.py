"""The preview page: one HTML file with its style and script inline, so it needs nothing from
outside (it works offline), built from `templates/preview/`.

The page draws itself from the state embedded in it and then from each update the server
pushes: it swaps only the pictures whose content hash changed.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2
from markupsafe import Markup

from ..core.localweb import script_json
from ..core.resources import TEMPLATES as SHIPPED_TEMPLATES

TEMPLATES = SHIPPED_TEMPLATES / "preview"


@lru_cache(maxsize=1)
def _template():
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                                     trim_blocks=True, lstrip_blocks=True)
    return environment.get_template("page.html.j2")


def page_html(state: dict) -> str:
    title = state["deck"]["name"] if state.get("deck") else "deckgen preview"
    return _template().render(title=title, state=Markup(script_json(state)), links=state.get("links", []))
