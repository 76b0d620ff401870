"""Drawing cards: print-and-play sheets, one-card-per-page PDFs and card images.

Public entry points: `cards.draw_face` / `cards.draw_back` (any reportlab canvas),
`images.card_image`, `text.text_problems` (for the validator), `sheets.print_sheets`,
`sheets.one_per_page`, `images.write_images`.
"""
