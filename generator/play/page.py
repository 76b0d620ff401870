"""The table's page: one HTML file with its style and script inline (`templates/play/`), so it
needs nothing from elsewhere; it draws itself from the state embedded in it, then from the
state it asks for after each change the server announces.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2
from markupsafe import Markup

from ..core.localweb import script_json
from ..core.resources import TEMPLATES as SHIPPED_TEMPLATES

TEMPLATES = SHIPPED_TEMPLATES / "play"


@lru_cache(maxsize=1)
def _template():
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                                     trim_blocks=True, lstrip_blocks=True)
    return environment.get_template("page.html.j2")


def page_html(state: dict) -> str:
    return _template().render(title=state["deck"]["name"], state=Markup(script_json(state)))
