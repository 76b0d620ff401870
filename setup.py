"""The compiled random playouts (generator/games/_playout.c) are an optional extension: a
machine without a C compiler still installs deckgen, and the engines play in Python."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("generator.games._playout", ["generator/games/_playout.c"], optional=True)])
