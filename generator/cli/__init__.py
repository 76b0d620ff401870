"""The `deckgen` command: a thin typer shell over the library (`app`, `commands`, `console`).

The top layer: it may import anything, and nothing imports it. Each command module imports
the library it needs inside the command's function, so a quick command loads only its own
stage (the one place in deckgen where imports inside functions are the design).
"""
