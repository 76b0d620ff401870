"""Stage 3, print: the faces laid out on paper for home printers and print services.

Owns sheets with crop marks and one-card-per-page PDFs (`sheets`, `layout`), PDF/X
(`pdfx`), print-and-cut files (`cutfile`), the calibration sheet and remembered printers
(`calibration`, `printers`) and the print services' packs (`services`). May import
`generator.faces`, `generator.games` (for nothing today), `generator.deck` and `generator.core`.
"""
