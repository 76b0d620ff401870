"""The ground floor: what every stage needs and nothing about decks.

Owns deckgen's errors (`errors`), where its shipped files live (`resources`), the one way
every input file is opened (`files`), atomic file output (`output`), the sealed entry files of
the cache folder (`cachefile`), worker processes that die with their parent (`lifetime`),
progress on long work (`progress`), a typesetter's punctuation (`typography`) and the names of the engines installed packages register
(`plugins`). Imports nothing else from deckgen.
"""
