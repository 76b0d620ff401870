"""deckgen: write a card game's deck once in TOML; get print sheets, exports, rulebooks,
a validator and a referee. The command line (`generator.cli`) is a thin shell over
this package: `load_deck` gives the typed model every other module reads."""

from importlib import import_module

__version__ = "0.1.0"

# Resolved on first use, so `deckgen --help` does not pay for the loader and model.
_PUBLIC = {
    "Card": "generator.model",
    "Deck": "generator.model",
    "DeckgenError": "generator.errors",
    "InvalidDeck": "generator.errors",
    "Problem": "generator.errors",
    "UnreadableInput": "generator.errors",
    "check_deck": "generator.loader",
    "load_deck": "generator.loader",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'generator' has no attribute {name!r}")
