"""deckgen: write a card game's deck once in TOML; get print sheets, exports, rulebooks,
a validator and a referee. The command line (`generator.cli.app`) is a thin shell over
this package: `load_deck` gives the typed model every other module reads."""

from importlib import import_module

__version__ = "0.1.0"

# Resolved on first use, so `deckgen --help` does not pay for the loader and model.
_PUBLIC = {
    "Card": "generator.deck.model",
    "Deck": "generator.deck.model",
    "DeckgenError": "generator.core.errors",
    "InvalidDeck": "generator.core.errors",
    "Problem": "generator.core.errors",
    "UnreadableInput": "generator.core.errors",
    "check_deck": "generator.deck.loader",
    "load_deck": "generator.deck.loader",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'generator' has no attribute {name!r}")
