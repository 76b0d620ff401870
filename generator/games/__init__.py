"""Stage 4, play: the games' rules as engines, and what is built on them.

Owns the engine API (`base`), the four shipped engines, game logs (`logs`), the referee
(`referee`), the HTML replay (`replay`), bots and simulation (`bots`, `simulate`,
`fastpath`) and the referee's reading of figures of play in rule text (`play_figures`).
May import `generator.deck` and `generator.core`.
"""
