"""A fast PNG writer for card images.

Pillow tries every PNG row filter on every row, which makes encoding a 300-dpi card
cost several times its rendering. Card art is flat colour, so rows stored unfiltered
and deflated at a low level are both quicker to write and smaller. (ISA-L's deflate,
quicker still, was tried and dropped: its output varied between runs.) The rows come
straight from the renderer (see `raster.rasterise`), each already led by its filter
byte. The output is a standard 8-bit RGB PNG with its resolution recorded (pHYs),
byte-identical for the same image.
"""

from __future__ import annotations

import struct
import zlib

try:  # zlib-ng (pip package zlib-ng): the same format, three to four times quicker than zlib
    from zlib_ng.zlib_ng import compress as deflate
except ImportError:  # without it, zlib writes the same kind of file, slower
    from zlib import compress as deflate

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COMPRESSION_LEVEL = 2  # zlib-ng's level 2 packs as tight as zlib's level 1
METRES_PER_INCH = 0.0254


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(rows: bytes | bytearray, width: int, height: int, dpi: int) -> bytes:
    """An 8-bit RGB PNG of `rows` (each a 0 byte, PNG's "no filter" tag, then 3 × width bytes),
    its resolution set to `dpi`."""
    if len(rows) != (1 + 3 * width) * height:
        raise ValueError(f"{len(rows)} bytes do not make {height} rows of {width} RGB pixels")
    pixels_per_metre = round(dpi / METRES_PER_INCH)
    return b"".join((
        SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
        _chunk(b"pHYs", struct.pack(">IIB", pixels_per_metre, pixels_per_metre, 1)),
        _chunk(b"IDAT", deflate(rows, COMPRESSION_LEVEL)),
        _chunk(b"IEND", b""),
    ))
