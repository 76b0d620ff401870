"""Typeset rulebooks from a deck: PDF (reportlab), HTML and Markdown (Jinja2 templates).

`write_rulebooks(deck, out_dir, formats, template)` writes `<deck>-rules.pdf`,
`.html` and `.md` into `out_dir`; `build_step` is the `deckgen build` step.
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import InvalidDeck, OptionError
from ..core.output import write_bytes, write_text
from ..deck.figures import in_deck
from ..deck.model import Deck
from ..games.play_figures import check_deck
from .book import build_book
from .booklet import impose
from .inline_icons import IconFiles
from .paper import geometry
from .pdf import typeset
from .pictures import IMAGE_FOLDER, CardPictures
from .templated import choose_templates, png_data_uri, render
from .webfonts import embed_fonts

FORMATS = ("pdf", "html", "md")
ICON_FOLDER = IMAGE_FOLDER / "icons"  # the Markdown rulebook's inline icons, beside its card pictures


def rulebook_path(deck: Deck, out_dir: Path, fmt: str, paper: str = "a4", booklet: bool = False) -> Path:
    """<deck>-rules.<fmt>; the PDF on Letter is <deck>-rules-letter.pdf, the booklet <deck>-rules-booklet.pdf."""
    suffix = "-booklet" if booklet and fmt == "pdf" else f"-{paper}" if paper != "a4" and fmt == "pdf" else ""
    return out_dir / f"{deck.id}-rules{suffix}.{fmt}"


def write_rulebooks(deck: Deck, out_dir: Path, formats: tuple[str, ...] = FORMATS,
                    template: Path | None = None, paper: str = "a4", booklet: bool = False) -> list[Path]:
    """Write the rulebook in each format into out_dir; return the paths written.

    `template` (a Jinja template file, or a folder with rulebook.html.j2 / rulebook.md.j2)
    replaces the shipped template for the format it is written for. `paper` is the PDF's
    page size (a4 or letter); `booklet` makes it an A5 booklet imposed on A4 sheets instead.
    """

    unknown = [fmt for fmt in formats if fmt not in FORMATS]
    if unknown:
        raise OptionError(f"unknown rulebook format {unknown[0]!r}; choose from {', '.join(FORMATS)} or all")
    geometry(paper)
    if booklet and paper != "a4":
        raise OptionError(f"--booklet imposes A5 pages on A4 sheets; drop --paper {paper}")
    templates = choose_templates(formats, template)
    _check_figures(deck)
    book = build_book(deck)
    page_size = "a5" if booklet else paper
    rulebook = typeset(book, page_size) if "pdf" in formats else None
    # HTML and Markdown alone typeset the PDF only when they show a figure of play (cut out of it).
    pictures = CardPictures(deck, lambda: rulebook or typeset(book, page_size))
    # Templates run before anything is written: a designer's template that fails leaves no
    # half-written rulebook behind.
    pages = {}
    if "html" in formats:
        pages["html"] = embed_fonts(render(book, "html", templates["html"],
                                           lambda card: png_data_uri(pictures.png(card)), pictures.figure_image))
    icon_files = IconFiles(deck, ICON_FOLDER)
    if "md" in formats:
        pages["md"] = render(book, "md", templates["md"], pictures.relative_path,
                             lambda figure: pictures.figure_image(figure, as_file=True), icon_files.src)
    written: list[Path] = []
    if "pdf" in formats:
        data = impose(rulebook.pdf, f"{deck.name}: rules of play (booklet)") if booklet else rulebook.pdf
        written.append(write_bytes(rulebook_path(deck, out_dir, "pdf", paper, booklet), data))
    for fmt, page in pages.items():
        written.append(write_text(rulebook_path(deck, out_dir, fmt), page))
    if "md" in formats:
        written.extend(pictures.write_files(out_dir, in_deck(deck)))
        written.extend(icon_files.write(out_dir))
    return written


def _check_figures(deck: Deck) -> None:
    """A rulebook never shows a figure of play the deck's engine contradicts (exit code 1)."""

    errors = [problem for problem in check_deck(deck) if problem.severity == "error"] if in_deck(deck) else []
    if errors:
        raise InvalidDeck(errors)


def build_step(deck: Deck, out_dir: Path) -> list[Path]:
    """`deckgen build`: every format, shipped templates."""
    return write_rulebooks(deck, out_dir)
