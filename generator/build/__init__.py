"""`deckgen build`: the orchestration of every stage for every deck.

Owns the build itself (`run`), the steps of one deck and their carry-over (`steps`,
`uptodate`), the helper process beside a lone deck (`helper`) and the order decks go to
the workers (`order`). May import every stage below it; only `generator.cli` imports it.
"""
