"""Stage 4, play: the games' rules as engines, and what is built on them.

Owns the engine API (`base`: `Game`, `GameState`, loading the engine a deck names from the
`deckgen.engines` entry points) and what an engine declares beside its rules (`questions`,
`requirements`, `profile`), the four shipped engines, game logs (`logs`), the referee
(`referee`), the HTML replay (`replay`), bots and simulation (`bots`, `simulate`, `fastpath`),
the referee's reading of figures of play in rule text (`play_figures`) and the conformance
suite every engine passes (`conformance`). May import `generator.deck` and `generator.core`.
"""
