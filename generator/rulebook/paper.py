"""The rulebook's page sizes: A4 and Letter in two columns, and A5 (one column) for booklets."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, A5, LETTER
from reportlab.lib.units import mm

from ..core.errors import OptionError


@dataclass(frozen=True, slots=True)
class Geometry:
    """A page and where text goes on it, in points."""

    name: str
    page_width: float
    page_height: float
    margin: float
    top: float
    bottom: float
    gutter: float
    columns: int  # of the rules chapters

    @property
    def text_width(self) -> float:
        return self.page_width - 2 * self.margin

    @property
    def column_width(self) -> float:
        return (self.text_width - (self.columns - 1) * self.gutter) / self.columns

    @property
    def body_height(self) -> float:
        return self.page_height - self.top - self.bottom

    @property
    def scale(self) -> float:
        """This page's width against A4's, for the cover's pictures."""
        return self.page_width / A4[0]


GEOMETRIES = {
    "a4": Geometry("a4", *A4, 18 * mm, 22 * mm, 20 * mm, 7 * mm, 2),
    "letter": Geometry("letter", *LETTER, 18 * mm, 20 * mm, 18 * mm, 7 * mm, 2),
    "a5": Geometry("a5", *A5, 13 * mm, 17 * mm, 16 * mm, 5 * mm, 1),
}
PAPERS = ("a4", "letter")


def geometry(paper: str) -> Geometry:
    if paper not in GEOMETRIES:
        raise OptionError(f"--paper {paper!r} is not a rulebook paper size; choose one of {', '.join(PAPERS)}")
    return GEOMETRIES[paper]
