"""Live preview: `deckgen watch` serves a deck's cards to a browser and redraws a card when its
definition is saved.

Data flow: the watcher (`watcher`) sees a save, the session (`session`) reloads the deck, works
out which cards' drawings changed (`hashing`), redraws only those through the build's own
drawing (`generator.faces.images.card_pngs`) and tells the server (`server`), which pushes the
change to every open page (server-sent events); the page (`templates/preview/`) swaps just those
images.
"""
