"""Test oracles: the hand-written Wizard and Wizard Hearts engines that the rules engine
(generator.games.trick, playing decks/wizard.toml and decks/wizard-hearts.toml from their
[rules]) replaced. They are not part of deckgen; tests/games/test_games_oracles.py plays
the same seeds through both and asserts the same games, decision for decision."""
