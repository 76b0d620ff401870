"""A saddle-stitched booklet: the A5 rulebook's pages imposed two to a side on A4 sheets.

Print double-sided, flipping on the short edge, fold the stack in half and staple along the
fold. Pages are padded with blanks to a multiple of four; sheet k (from 0) of n pages carries
n-2k and 2k+1 on its front and 2k+2 and n-2k-1 on its back, so the folded stack reads 1, 2, 3...
Each source page becomes one form XObject, fonts and all, drawn where it belongs.
"""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4, landscape

SHEET_WIDTH, SHEET_HEIGHT = landscape(A4)


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers (1-based) for each side of each sheet; numbers past `pages` are blanks."""
    total = -(-pages // 4) * 4
    sides = []
    for sheet in range(total // 4):
        sides.append((total - 2 * sheet, 2 * sheet + 1))
        sides.append((2 * sheet + 2, total - 2 * sheet - 1))
    return sides


def impose(a5_pdf: bytes, title: str) -> bytes:
    """The booklet PDF: A4 landscape sheets, two A5 pages side by side on each."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name

    source = pikepdf.open(io.BytesIO(a5_pdf))
    booklet = pikepdf.new()
    forms = [booklet.copy_foreign(page.as_form_xobject()) for page in source.pages]
    half = SHEET_WIDTH / 2
    for left, right in booklet_order(len(forms)):
        resources, drawing = Dictionary(), []
        for slot, number in ((0, left), (1, right)):
            if number > len(forms):
                continue  # a blank page
            name = f"/Page{number}"
            resources[name] = forms[number - 1]
            width, height = (float(v) for v in source.pages[number - 1].mediabox[2:])
            x = slot * half + (half - width) / 2
            y = (SHEET_HEIGHT - height) / 2
            drawing.append(f"q 1 0 0 1 {x:.4f} {y:.4f} cm {name} Do Q")
        page = Dictionary(Type=Name.Page, MediaBox=Array([0, 0, SHEET_WIDTH, SHEET_HEIGHT]),
                          Resources=Dictionary(XObject=resources),
                          Contents=booklet.make_stream("\n".join(drawing).encode()))
        booklet.pages.append(pikepdf.Page(booklet.make_indirect(page)))
    booklet.Root.ViewerPreferences = Dictionary(Duplex=Name.DuplexFlipShortEdge, PrintScaling=Name("/None"))
    booklet.docinfo[Name.Title] = pikepdf.String(title)
    booklet.docinfo[Name.Creator] = pikepdf.String("deckgen")
    out = io.BytesIO()
    booklet.save(out, deterministic_id=True)
    return out.getvalue()
