"""`deckgen play`: a table in the browser where people and bots play a deck's game under its
engine's rules, each seat seeing only what it may, every game saved as a deckgen log.

Data flow: the session (`session`) holds the seating plan and the game (`table`: the engine's
state, every action, how each seat saw it, the log written after each move); the server
(`server`) answers each link with what that link may see (`seen`, built from the engine's
`GameState.view` and `Game.action_view`) and announces changes (server-sent events); the page
(`templates/play/`, plain JavaScript) draws the deck's own card pictures (`images`) and sends
moves; `app` starts and stops it all and watches the deck file for new rules.

Layer: beside `generator.preview`; imports games, faces, deck and core.
"""
