"""The rulebook's paragraphs: reportlab's, breaking their lines once per width.

reportlab wraps a paragraph again and again at the same width while it lays out a page: a
frame measuring what fits, a heading kept with what follows it, a table measuring its cells
and then drawing them. Each wrap breaks every line anew (hyphenation included), though the
answer only depends on the width. This paragraph keeps what its last wrap set and gives it
back when asked for the same width again; splitting a paragraph (which may change its
fragments) forgets it. The lines, and so the PDF, are the same as without it.
"""

from __future__ import annotations

from reportlab.platypus import Paragraph as _ReportlabParagraph

# What Paragraph.wrap and breakLines set on the paragraph (besides whatever else they set,
# which is found by comparing the paragraph before and after its first wrap at a width).
_WRAP_FIELDS = ("width", "height", "_wrapWidths", "blPara", "_width_max", "_splitLongWordCount", "_hyphenations")


class Paragraph(_ReportlabParagraph):
    _last_wrap: tuple | None = None  # (width, what the wrap set, what it returned)

    def wrap(self, availWidth, availHeight):
        last = self._last_wrap
        if last is not None and last[0] == availWidth:
            self.__dict__.update(last[1])
            return last[2]
        before = dict(self.__dict__)
        size = super().wrap(availWidth, availHeight)
        state = {field: value for field, value in self.__dict__.items()
                 if field != "_last_wrap" and (field in _WRAP_FIELDS or before.get(field, before) is not value)}
        self._last_wrap = (availWidth, state, size)
        return size

    def split(self, availWidth, availHeight):
        self._last_wrap = None
        try:
            return super().split(availWidth, availHeight)
        finally:
            self._last_wrap = None
