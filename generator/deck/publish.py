"""Where a deck's outputs will be served from (`[publish] base_url`, `--base-url`): checked once,
here, so that what the loader passes every export can write."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ..core.errors import OptionError


def check_base_url(url: str) -> str:
    """The URL without a trailing '/', if it is an http(s) address that tab-separated, XML and
    JSON files can all hold as it is."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or re.search(r"[\s\"'<>\\]", url):
        raise OptionError(f"--base-url {url!r}: give the http:// or https:// address the export's files "
                          "will be served from, without spaces or quotes")
    return url.rstrip("/")
