"""The table's page: one HTML file with its style and script inline (`templates/play/`), so it
needs nothing from elsewhere; it draws itself from the state embedded in it, then from the
state it asks for after each change the server announces.
"""

from __future__ import annotations

from markupsafe import Markup

from ..core.localweb import page_template, script_json
from ..core.resources import TEMPLATES as SHIPPED_TEMPLATES

TEMPLATES = SHIPPED_TEMPLATES / "play"


def page_html(state: dict) -> str:
    return page_template(TEMPLATES, "page.html.j2").render(title=state["deck"]["name"],
                                                            state=Markup(script_json(state)))
