"""The preview page: one HTML file with its style and script inline, so it needs nothing from
outside (it works offline), built from `templates/preview/`.

The page draws itself from the state embedded in it and then from each update the server
pushes: it swaps only the pictures whose content hash changed.
"""

from __future__ import annotations

from markupsafe import Markup

from ..core.localweb import page_template, script_json
from ..core.resources import TEMPLATES as SHIPPED_TEMPLATES

TEMPLATES = SHIPPED_TEMPLATES / "preview"


def page_html(state: dict) -> str:
    title = state["deck"]["name"] if state.get("deck") else "deckgen preview"
    return page_template(TEMPLATES, "page.html.j2").render(title=title, state=Markup(script_json(state)),
                                                            links=state.get("links", []))
