"""deckgen: write a card game's deck once in TOML; get print sheets, exports, rulebooks,
a validator and a referee. The command line (`generator.cli`) is a thin shell over
this package: `load_deck` gives the typed model every other module reads."""

from .errors import DeckgenError, InvalidDeck, Problem, UnreadableInput
from .loader import check_deck, load_deck
from .model import Card, Deck

__all__ = ["Card", "Deck", "DeckgenError", "InvalidDeck", "Problem", "UnreadableInput",
           "check_deck", "load_deck"]
__version__ = "0.1.0"
