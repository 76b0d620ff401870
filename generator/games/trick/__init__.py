"""The rules engine: plays, referees and answers questions about any trick-taking game a
deck describes in its `[rules]` table (docs/rules-language.md), read by
`generator.deck.trickrules`.

`game.RulesGame` is the `Game`; `state.RulesState` plays a round's flow (`flow`), its card
options and refusals (`moves`), bidding (`bidding`) and scoring (`scoring`) from card tables
(`tables`); `logs`, `questions`, `report`, `bounds` and `bot` are its log format, its
answers at the table, its records, its declared limits and its heuristic player.
"""
