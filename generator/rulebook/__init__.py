"""Typeset rulebooks from a deck: PDF (reportlab), HTML and Markdown (Jinja2 templates).

`write_rulebooks(deck, out_dir, formats, template)` writes `<deck>-rules.pdf`,
`.html` and `.md` into `out_dir`; `build_step` is the `deckgen build` step.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import OptionError
from ..model import Deck

FORMATS = ("pdf", "html", "md")


def rulebook_path(deck: Deck, out_dir: Path, fmt: str) -> Path:
    return out_dir / f"{deck.id}-rules.{fmt}"


def write_rulebooks(deck: Deck, out_dir: Path, formats: tuple[str, ...] = FORMATS,
                    template: Path | None = None) -> list[Path]:
    """Write the rulebook in each format into out_dir; return the paths written.

    `template` (a Jinja template file, or a folder with rulebook.html.j2 / rulebook.md.j2)
    replaces the shipped template for the format it is written for.
    """
    from ..output import write_text
    from .book import build_book
    from .pictures import CardPictures
    from .templated import png_data_uri, render, template_for, template_format

    unknown = [fmt for fmt in formats if fmt not in FORMATS]
    if unknown:
        raise OptionError(f"unknown rulebook format {unknown[0]!r}; choose from {', '.join(FORMATS)} or all")
    if template is not None and template.is_file() and template_format(template) not in formats:
        raise OptionError(f"--template {template} is a {template_format(template)} template, "
                          f"but the formats asked for are {', '.join(formats)}")
    book = build_book(deck)
    pictures = CardPictures(deck)
    written: list[Path] = []
    if "pdf" in formats:
        from .pdf import write_pdf

        written.append(write_pdf(book, rulebook_path(deck, out_dir, "pdf")))
    if "html" in formats:
        page = render(book, "html", template_for("html", template), lambda card: png_data_uri(pictures.png(card)))
        written.append(write_text(rulebook_path(deck, out_dir, "html"), page))
    if "md" in formats:
        page = render(book, "md", template_for("md", template), pictures.relative_path)
        written.append(write_text(rulebook_path(deck, out_dir, "md"), page))
        written.extend(pictures.write_files(out_dir))
    return written


def build_step(deck: Deck, out_dir: Path) -> list[Path]:
    """`deckgen build`: every format, shipped templates."""
    return write_rulebooks(deck, out_dir)
