"""Stage 2, the card faces: each card drawn from its layout, on any reportlab canvas or as pixels.

Owns drawing (`cards`, `elements`, `text`, `paint`, `figures`, `art`, `icons`), fonts
(`fonts`, `fontcache`), PDF documents of faces (`document`), rasterised images (`raster`,
`images`, `png`), the checks that must hold before drawing (`check`, `quality`) and the
print services' image rules (`service_specs`). May import `generator.deck` and
`generator.core`.
"""
