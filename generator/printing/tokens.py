"""Token and counter sheets: a deck's `[[tokens]]`, each drawn by its layout like a card face.

A token becomes a card-like value (its name, text, kind, `props.color` and further props) and
is drawn by `faces.cards.draw_face` with the token's layout (the built-in `token` by default),
so tokens use the same layout language, fonts, icons and text fitting as the cards. Tokens
stand on the sheet in rows with a bleed around each and a hairline cut outline (a circle for
round tokens, which a punch or scissors follow); text that does not fit is an error naming the
token, as for cards.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from ..core.errors import InvalidDeck, OptionError
from ..core.output import write_bytes
from ..deck.layouts.values import kind_color
from ..deck.model import Card
from ..deck.sizes import paper_mm, pt
from ..faces import fonts, paint
from ..faces.cards import draw_face
from ..faces.check import card_problems

if TYPE_CHECKING:
    from ..deck.model import Deck, Token

TOKEN_BLEED_MM = 2.0
TOKEN_GAP_MM = 2.0  # between neighbours' bleeds: room for scissors
SHEET_MARGIN_MM = 10.0
CUT_GREY = "#808080"


def token_card(deck: "Deck", token: "Token") -> Card:
    """The token as the card value its layout draws."""
    color = token.color or (kind_color(deck, token.kind) if token.kind else deck.back.color)
    return Card(id=f"token-{token.id}", name=token.name, code=token.id.upper(), kind=token.kind, type_line="",
                count=token.count, text=token.text, props={**token.props, "color": color}, layout=token.layout)


def token_problems(deck: "Deck") -> list:
    """Texts of tokens that do not fit or cannot be drawn, named by token."""
    problems = []
    for index, token in enumerate(deck.tokens):
        for problem in card_problems(deck, token_card(deck, token), token.size_mm, token.size_mm):
            problems.append(dataclasses.replace(
                problem, message=problem.message.replace("card ", "token ", 1).replace(" mm card:", " mm token:"),
                field=f"tokens[{index}]" + problem.field[problem.field.find("."):]))
    return problems


def token_slots(paper: str, tokens: list["Token"]) -> list[list[tuple["Token", float, float]]]:
    """Pages of (token, x, y) in mm from the page's lower left (each copy its own slot), tokens
    placed in rows left to right, top to bottom, a row as tall as its tallest token."""
    width, height = paper_mm(paper)
    pages: list[list[tuple["Token", float, float]]] = [[]]
    x, top, row_height = SHEET_MARGIN_MM, height - SHEET_MARGIN_MM, 0.0
    for token in tokens:
        cell = token.size_mm + 2 * TOKEN_BLEED_MM
        if cell > min(width, height) - 2 * SHEET_MARGIN_MM:
            raise OptionError(f"token {token.id!r}: {token.size_mm:g} mm does not fit on {paper} paper with "
                              f"{SHEET_MARGIN_MM:g} mm margins; give it a smaller size_mm")
        for _ in range(token.count):
            if x + cell > width - SHEET_MARGIN_MM:  # next row
                x, top, row_height = SHEET_MARGIN_MM, top - row_height - TOKEN_GAP_MM, 0.0
            if top - cell < SHEET_MARGIN_MM:  # next page
                pages.append([])
                x, top, row_height = SHEET_MARGIN_MM, height - SHEET_MARGIN_MM, 0.0
            pages[-1].append((token, x + TOKEN_BLEED_MM, top - cell + TOKEN_BLEED_MM))
            x += cell + TOKEN_GAP_MM
            row_height = max(row_height, cell)
    return pages


def token_sheets(deck: "Deck", paper: str = "a4") -> bytes:
    """The PDF of every token's copies on `paper`; raises InvalidDeck for text that cannot fit."""
    if not deck.tokens:
        raise OptionError(f"deck {deck.id!r} has no [[tokens]]; add some (docs/deck-format.md, Tokens)")
    problems = [p for p in token_problems(deck) if p.severity == "error"]
    if problems:
        raise InvalidDeck(problems)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=tuple(pt(v) for v in paper_mm(paper)), invariant=1, pageCompression=1,
                    initialFontName=fonts.font("sans"))
    canvas.setTitle(f"{deck.name}: tokens")
    canvas.setCreator("deckgen")
    canvas.setProducer("deckgen")
    cards = {token.id: token_card(deck, token) for token in deck.tokens}
    for page in token_slots(paper, list(deck.tokens)):
        for token, x_mm, y_mm in page:
            _draw_token(canvas, deck, token, cards[token.id], pt(x_mm), pt(y_mm))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_token(canvas, deck: "Deck", token: "Token", card: Card, x: float, y: float) -> None:
    size, bleed = pt(token.size_mm), pt(TOKEN_BLEED_MM)
    canvas.saveState()
    clip = canvas.beginPath()
    if token.shape == "circle":
        clip.circle(x + size / 2, y + size / 2, size / 2 + bleed)
    else:
        clip.rect(x - bleed, y - bleed, size + 2 * bleed, size + 2 * bleed)
    canvas.clipPath(clip, stroke=0, fill=0)
    draw_face(canvas, deck, card, x, y, size, size, bleed)
    canvas.restoreState()
    canvas.saveState()  # the cut line, over the bleed
    paint.set_stroke(canvas, CUT_GREY)
    canvas.setLineWidth(0.25)
    if token.shape == "circle":
        canvas.circle(x + size / 2, y + size / 2, size / 2, stroke=1, fill=0)
    else:
        canvas.rect(x, y, size, size, stroke=1, fill=0)
    canvas.restoreState()


def write_tokens(deck: "Deck", out_dir: Path, paper: str = "a4") -> Path:
    return write_bytes(out_dir / f"{deck.id}-tokens-{paper}.pdf", token_sheets(deck, paper))
