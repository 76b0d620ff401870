"""Floor for `deckgen images`: the card pages drawn by a minimal reportlab script, then pdfium
(pypdfium2) and zlib-ng turning them into PNGs, no deckgen code at all.

Run: python benchmarks/floor_images.py (--deck DECK.toml | --pdf CARDS.pdf) OUT_DIR [--dpi 300]
        [--bleed 3] [--drawn-bleed 4] [--trim 63x88]
With --deck, the deck's distinct faces and its back are drawn a page each, trim plus
`--drawn-bleed` mm around the card, by benchmarks/floor_print.py's drawing (the same cards,
pictures and fonts as `deckgen print`'s floor), into a PDF kept in memory: `deckgen images`
has to draw its cards too. With --pdf, a ready PDF of such pages is only rasterised (the one
deckgen itself draws, written by benchmarks/bench_render.py): the floor of the rasterising
alone. Every page is rendered at `--dpi`, cut to trim plus `--bleed`, straight into a buffer
whose rows each start with PNG's no-filter byte, deflated by zlib-ng at level 2 and written as
a PNG, compressing on two threads while the next page renders: what is left of
`deckgen images` without loading the deck, checking it, fitting its texts or laying it out.
"""

from __future__ import annotations

import argparse
import ctypes
import struct
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium
from zlib_ng.zlib_ng import compress


def png(rows: bytearray, width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return b"".join((b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
                     chunk(b"IDAT", compress(rows, 2)), chunk(b"IEND", b"")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--deck", type=Path, help="draw this deck's card pages first")
    source.add_argument("--pdf", type=Path, help="rasterise these ready card pages")
    parser.add_argument("out", type=Path)
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--bleed", type=float, default=3.0)
    parser.add_argument("--drawn-bleed", type=float, default=4.0)
    parser.add_argument("--trim", default="63x88")
    args = parser.parse_args()
    trim = [float(side) for side in args.trim.split("x")]
    width, height = (round((side + 2 * args.bleed) / 25.4 * args.dpi) for side in trim)
    page_w, page_h = ((side + 2 * args.drawn_bleed) / 25.4 * 72 for side in trim)
    scale = args.dpi / 72
    matrix = pdfium.FS_MATRIX(scale, 0, 0, scale, width / 2 - scale * page_w / 2, height / 2 - scale * page_h / 2)
    clip = pdfium.FS_RECTF(0, 0, width, height)
    stride = 1 + 3 * width
    args.out.mkdir(parents=True, exist_ok=True)
    if args.deck:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from floor_print import draw_card_pages

        document = pypdfium2.PdfDocument(draw_card_pages(args.deck, args.drawn_bleed))
    else:
        document = pypdfium2.PdfDocument(args.pdf)

    def save(number: int, rows: bytearray) -> None:
        (args.out / f"{number}.png").write_bytes(png(rows, width, height))

    pending: list = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for number in range(len(document)):
            rows = bytearray(stride * height)
            pixels = (ctypes.c_ubyte * (len(rows) - 1)).from_buffer(rows, 1)
            bitmap = pdfium.FPDFBitmap_CreateEx(width, height, pdfium.FPDFBitmap_BGR, pixels, stride)
            page = document[number]
            pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
            pdfium.FPDF_RenderPageBitmapWithMatrix(bitmap, page, matrix, clip,
                                                   pdfium.FPDF_ANNOT | pdfium.FPDF_REVERSE_BYTE_ORDER)
            pdfium.FPDFBitmap_Destroy(bitmap)
            page.close()
            del pixels
            pending.append(pool.submit(save, number, rows))
            if len(pending) > 3:  # a few images in flight, as deckgen keeps
                pending.pop(0).result()
        for job in pending:
            job.result()
    document.close()


if __name__ == "__main__":
    main()
