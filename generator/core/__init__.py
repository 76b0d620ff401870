"""The ground floor: what every stage needs and nothing about decks.

Owns deckgen's errors (`errors`), where its shipped files live (`resources`), atomic file
output (`output`), the sealed entry files of the cache folder (`cachefile`), progress on
long work (`progress`) and the names of the engines installed packages register (`plugins`).
Imports nothing else from deckgen.
"""
