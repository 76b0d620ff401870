"""Drawing cards: print-and-play sheets, one-card-per-page PDFs and card images.

Public entry points: `cards.draw_face` / `cards.draw_back` (any reportlab canvas),
`images.card_image`, `check.text_problems` and `art.art_problems` (for the validator),
`sheets.print_sheets`, `sheets.one_per_page`, `images.write_images`.

Modules: `cards` chooses a design per card (`playing`, `picture`, `textcard`; `backs`
for the back), all built on `design`, `text` (fitting), `paint` and `figures`
(shapes); `document` stores each drawing once; `sheets` and `images` write files.
"""
