"""reportlab form XObjects given every resource their drawing uses.

deckgen draws each card once as a PDF form (`document.CardDocument`, the rulebook's card
pictures) and places it wherever it is shown. reportlab's forms list only their fonts and
inner forms as resources ("any resource used in a form must be propagated ... not
implemented yet", says its source): a translucent panel's graphics state (`/gRLs1 gs`), an
SVG gradient's shading (`/Sh0 sh`) and a named colour space are used in the form's stream
but defined nowhere, so mupdf and poppler warn and draw them wrong (a gradient as a black
box, a panel opaque) and a PDF/X check cannot see them.

`install()` wraps `Canvas.endForm` once per process so that every form any deckgen canvas
ends (cards, rulebook pages) gets a resource dictionary holding its graphics states,
shadings and colour spaces as well. It is installed when this module is imported, and
`faces.fonts`, which every drawing of text goes through, imports it.
"""

from __future__ import annotations

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

_MARK = "_deckgen_complete_resources"


def complete_resources(canvas: Canvas, name: str, shadings: dict, colours: dict) -> None:
    """Give the form `name` (just ended on `canvas`) the full resource dictionary a page gets."""
    form = canvas._doc.idToObject.get(pdfdoc.xObjectName(name))
    if form is None:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    if form.hasImages:
        resources.allProcs()
    else:
        resources.basicProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        resources.ExtGState = form.ExtGState
    resources.setShading(shadings)
    resources.setColorSpace(colours)
    form.Resources = resources


def install() -> None:
    """Wrap reportlab's `Canvas.endForm` (once) to complete each form's resources."""
    if getattr(Canvas.endForm, _MARK, False):
        return
    end_form = Canvas.endForm

    def end_form_with_resources(self, **extra_attributes):
        name = self._formData[0]
        # endForm forgets what the form used before it builds the form's dictionary
        shadings, colours = dict(self._shadingUsed), dict(self._colorsUsed)
        end_form(self, **extra_attributes)
        complete_resources(self, name, shadings, colours)

    setattr(end_form_with_resources, _MARK, True)
    end_form_with_resources.__doc__ = end_form.__doc__
    Canvas.endForm = end_form_with_resources


install()
