"""The ink-saving print (`deckgen print --ink-saver`): a reportlab canvas on which every filled
shape is drawn as its outline, in the colour it would have been filled with, and every raster
image as a light grey wash. Text, lines and strokes are drawn as usual, so cards stay readable and cut
lines stay where they were; a full-bleed background becomes a thin frame at the bleed's edge.

The cards are drawn by the same code as ever (`faces.cards`): only the canvas differs, so no
layout needs an ink-saving variant. Vector art (SVG) is drawn through the canvas too, and its
fills become outlines like any other.
"""

from __future__ import annotations

from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..core.files import open_input

OUTLINE_PT = 0.6
# Art is printed as a light grey wash: 40 % of its darkness, so text set over it on a panel
# (which loses its fill here) stays readable, and a full-bleed picture costs little toner.
ART_DENSITY = 0.4


class InkSaverCanvas(Canvas):
    """A Canvas whose fills are outlines and whose images are grey."""

    def _outline(self, stroke: int, fill: int) -> tuple[int, int]:
        """Turn a fill into an outline in the fill's colour (within the caller's saved state)."""
        if not fill:
            return stroke, 0
        self.saveState()
        self.setStrokeColor(self._fillColorObj)
        self.setLineWidth(OUTLINE_PT)
        self.setDash([])
        return 1, 0

    def _drawn(self, draw, stroke: int, fill: int) -> None:
        outline_stroke, _ = self._outline(stroke, fill)
        draw(outline_stroke, 0)
        if fill:
            self.restoreState()

    def rect(self, x, y, width, height, stroke=1, fill=0):
        self._drawn(lambda s, f: super(InkSaverCanvas, self).rect(x, y, width, height, stroke=s, fill=f), stroke, fill)

    def roundRect(self, x, y, width, height, radius, stroke=1, fill=0):
        self._drawn(lambda s, f: super(InkSaverCanvas, self).roundRect(x, y, width, height, radius, stroke=s, fill=f),
                    stroke, fill)

    def circle(self, x_cen, y_cen, r, stroke=1, fill=0):
        self._drawn(lambda s, f: super(InkSaverCanvas, self).circle(x_cen, y_cen, r, stroke=s, fill=f), stroke, fill)

    def ellipse(self, x1, y1, x2, y2, stroke=1, fill=0):
        self._drawn(lambda s, f: super(InkSaverCanvas, self).ellipse(x1, y1, x2, y2, stroke=s, fill=f), stroke, fill)

    def wedge(self, x1, y1, x2, y2, startAng, extent, stroke=1, fill=0):
        self._drawn(lambda s, f: super(InkSaverCanvas, self).wedge(x1, y1, x2, y2, startAng, extent, stroke=s, fill=f),
                    stroke, fill)

    def drawPath(self, aPath, stroke=1, fill=0, fillMode=None):
        self._drawn(lambda s, f: super(InkSaverCanvas, self).drawPath(aPath, stroke=s, fill=f, fillMode=fillMode),
                    stroke, fill)

    def drawImage(self, image, x, y, width=None, height=None, mask=None, *args, **kwargs):
        grey = ImageReader(_grey(image))  # read through the one opener (_grey), then drawn from memory
        draw = super().drawImage
        return draw(grey, x, y, width, height, mask="auto", *args, **kwargs)


def _grey(image) -> Image.Image:
    """The image in grey (its alpha kept), from a file name, an ImageReader or a PIL image."""
    if isinstance(image, ImageReader):
        picture = image._image  # the PIL image the reader holds
    elif isinstance(image, Image.Image):
        picture = image
    else:
        with open_input(image, "image") as handle, Image.open(handle) as opened:
            opened.load()
            picture = opened.copy()
    luminance = picture.convert("L").point(lambda level: round(255 - (255 - level) * ART_DENSITY))
    if picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info:
        alpha = picture.convert("RGBA").getchannel("A")
        return Image.merge("RGBA", (luminance, luminance, luminance, alpha))
    return luminance.convert("RGB")
