"""Stage 1, the deck: a deck file loaded into the typed model and checked.

Owns the model (`model`), the TOML loader and its checks (`loader`, `schema`, `locate`), the
card layouts as data (`layouts`), spreadsheets (`sources`, read within bounds by
`spreadsheets`), markup and figures of play in
rule text (`markup`, `figures`), translations (`translate`), card and paper sizes (`sizes`),
the deck cache the quick commands read (`cache`), finding deck files (`files`) and
`deckgen new` (`new`). May import `generator.core` only.
"""
