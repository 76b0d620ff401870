"""`deckgen diff --html`: one self-contained page showing a deck diff.

Each card whose printed face changed appears old beside new, drawn by the same renderer as
the print sheets, with the regions whose pixels differ outlined on both pictures. Pictures
are embedded as data URLs, so the page opens offline in any browser and can be mailed.
"""

from __future__ import annotations

import base64
import io
from html import escape
from pathlib import Path
from typing import Iterable

from PIL import Image, ImageChops

from ..core.output import write_text
from ..faces.images import render_cards
from .compare import Change, DeckDiff, _by_id, _show

DPI = 100
_CELL = 6  # px: changed pixels are grouped in cells this size before boxes are drawn round them


def write_diff_html(result: DeckDiff, path: Path) -> Path:
    return write_text(path, diff_html(result))


def diff_html(result: DeckDiff) -> str:
    old, new = result.old, result.new
    printed = [c for c in result.changes if c.section == "cards" and (c.printed or c.action == "removed")]
    old_cards, new_cards = _by_id(old.cards), _by_id(new.cards)
    old_side = [old_cards.get(c.old_id or c.id) for c in printed]
    new_side = [new_cards.get(c.id) if c.action != "removed" else None for c in printed]
    old_images = _images(old, old_side)
    new_images = _images(new, new_side)
    blocks = []
    for change, before, after in zip(printed, old_images, new_images):
        blocks.append(_pair(change, before, after))
    if result.back_changed:
        back_old, back_new = next(_render(old, [None])), next(_render(new, [None]))
        blocks.append(_pair(Change("back", "changed", "back", "card back"), back_old, back_new))
    others = [c for c in result.changes if not (c.section == "cards" and (c.printed or c.action == "removed"))]
    reprint = result.reprint_counts()
    title = f"{new.name}: {old.version} → {new.version}"
    return _PAGE.format(
        title=escape(title),
        old=escape(str(old.source)), new=escape(str(new.source)),
        summary=escape(f"{len(result.changes)} change(s); update pack: {sum(reprint.values())} card(s) "
                       f"of {len(reprint)} design(s)" if result.changes else "no differences"),
        cards="\n".join(blocks),
        others=_table(others, new) if others else "",
    )


def _render(deck, cards: list):
    return render_cards(deck, cards, dpi=DPI)


def _images(deck, cards: list) -> list:
    """Pictures of the given cards (None where the card does not exist in this version)."""
    wanted = [card for card in cards if card is not None]
    rendered = iter(_render(deck, wanted)) if wanted else iter(())
    return [next(rendered) if card is not None else None for card in cards]


def _pair(change: Change, before, after) -> str:
    boxes = _changed_boxes(before, after)
    head = f"{change.action}: {change.label or change.id}"
    if change.old_id:
        head += f" (was {change.old_id})"
    fields = "".join(f"<li><b>{escape(f.name)}</b>: <del>{escape(_show(f.old))}</del> "
                     f"<ins>{escape(_show(f.new))}</ins></li>" for f in change.fields)
    return (f'<section class="card {escape(change.action)}" data-id="{escape(change.id)}">'
            f"<h3>{escape(head)}</h3><div class=\"pair\">"
            f"{_figure('old', before, boxes)}{_figure('new', after, boxes)}</div>"
            + (f"<ul>{fields}</ul>" if fields else "") + "</section>")


def _figure(side: str, image, boxes: list[tuple[float, float, float, float]]) -> str:
    if image is None:
        return f'<figure class="{side} missing"><div class="none">not in the {side} version</div>' \
               f"<figcaption>{side}</figcaption></figure>"
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False)
    data = base64.b64encode(buffer.getvalue()).decode()
    marks = "".join(f'<span class="region" style="left:{x:.2f}%;top:{y:.2f}%;width:{w:.2f}%;height:{h:.2f}%">'
                    "</span>" for x, y, w, h in boxes)
    return (f'<figure class="{side}"><div class="picture"><img alt="{side} picture" '
            f'width="{image.width}" height="{image.height}" src="data:image/png;base64,{data}">{marks}</div>'
            f"<figcaption>{side}</figcaption></figure>")


def _changed_boxes(before, after) -> list[tuple[float, float, float, float]]:
    """Rectangles (in % of the picture) around the pixels that differ; the whole card when
    only one side exists or the sizes differ."""
    if before is None or after is None:
        return []
    if before.size != after.size:
        return [(0.0, 0.0, 100.0, 100.0)]

    width, height = before.size
    mask = ImageChops.difference(before, after).convert("L").point(lambda v: 255 if v > 24 else 0)
    columns, rows = -(-width // _CELL), -(-height // _CELL)
    cells = _cell_grid(mask, columns, rows)
    seen: set[tuple[int, int]] = set()
    boxes = []
    for start in sorted(cells):
        if start in seen:
            continue
        stack, x0, y0, x1, y1 = [start], start[0], start[1], start[0], start[1]
        seen.add(start)
        while stack:
            x, y = stack.pop()
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    near = (x + dx, y + dy)
                    if near in cells and near not in seen:
                        seen.add(near)
                        stack.append(near)
        boxes.append((100 * x0 * _CELL / width, 100 * y0 * _CELL / height,
                      100 * min((x1 - x0 + 1) * _CELL, width - x0 * _CELL) / width,
                      100 * min((y1 - y0 + 1) * _CELL, height - y0 * _CELL) / height))
    return boxes


def _cell_grid(mask, columns: int, rows: int) -> set[tuple[int, int]]:
    padded = Image.new("L", (columns * _CELL, rows * _CELL))
    padded.paste(mask)
    # A box filter over each cell: a cell with any changed pixel averages above zero.
    small = padded.resize((columns, rows), Image.Resampling.BOX)
    data = small.tobytes()
    return {(index % columns, index // columns) for index, value in enumerate(data) if value}


def _table(changes: Iterable[Change], new) -> str:
    rows = []
    for change in changes:
        details = "".join(f"<div><b>{escape(f.name)}</b>: <del>{escape(_show(f.old))}</del> "
                          f"<ins>{escape(_show(f.new))}</ins></div>" for f in change.fields)
        rows.append(f"<tr><td>{escape(change.section)}</td><td>{escape(change.action)}</td>"
                    f"<td><code>{escape(change.id)}</code> {escape(change.label)}"
                    + (f" (was <code>{escape(change.old_id)}</code>)" if change.old_id else "")
                    + f"</td><td>{details}</td></tr>")
    return ("<h2>Other changes</h2><table class=\"others\"><thead><tr><th>what</th><th>change</th><th>id</th>"
            "<th>fields</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #222; max-width: 70rem; }}
h1 {{ font-size: 1.5rem; margin: 0 0 .25rem; }}
.files {{ color: #555; margin: 0 0 1rem; word-break: break-all; }}
section.card {{ border-top: 1px solid #ddd; padding: .75rem 0; }}
section.card h3 {{ margin: 0 0 .5rem; font-size: 1.05rem; }}
.pair {{ display: flex; gap: 1rem; }}
figure {{ margin: 0; flex: 0 1 260px; min-width: 0; }}
.picture {{ position: relative; line-height: 0; }}
.picture img {{ width: 100%; height: auto; border-radius: 4px; box-shadow: 0 1px 4px #0004; }}
.region {{ position: absolute; outline: 3px solid #e0197d; background: #e0197d22; }}
.none {{ display: flex; align-items: center; justify-content: center; aspect-ratio: 63 / 88;
         border: 2px dashed #bbb; border-radius: 4px; color: #777; line-height: 1.3; text-align: center; }}
figcaption {{ text-align: center; color: #555; margin-top: .25rem; }}
del {{ background: #fde2e2; }} ins {{ background: #dcf5dc; text-decoration: none; }}
table {{ border-collapse: collapse; width: 100%; }}
td, th {{ border-bottom: 1px solid #ddd; padding: .35rem .5rem; text-align: left; vertical-align: top; }}
td:last-child {{ overflow-wrap: anywhere; }}
</style></head>
<body>
<h1>{title}</h1>
<p class="files">{old} → {new}</p>
<p class="summary">{summary}</p>
{cards}
{others}
</body></html>
"""
