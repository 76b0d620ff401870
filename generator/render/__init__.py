"""Drawing cards: print-and-play sheets, one-card-per-page PDFs and card images.

Public entry points: `cards.draw_face` / `cards.draw_back(…, card=)` (any reportlab canvas),
`images.card_image` / `images.card_back_image`, `check.text_problems`, `art.art_problems`
and `quality.contrast_problems` / `quality.resolution_problems` (for the validator),
`sheets.print_sheets`, `sheets.one_per_page`, `images.write_images`.

Modules: `cards` draws a card from the layout `generator.layouts` chooses and places for
it; `elements` draws each element type, on `text` (fitting, inline icons), `paint`,
`figures` (drawn pictures), `art` (images, made bleed) and `icons`; `fonts` holds DejaVu
and the deck's own fonts; `document` stores each drawing once; `sheets` and `images`
write files.
"""
