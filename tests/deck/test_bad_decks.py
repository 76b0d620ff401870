"""The bad-input corpus, decks and files: TOML that does not parse, files that are not files,
every field of the format broken in the ways designers break it, sizes past the limits.
Each case asserts the exit code, no traceback, and a message naming the file and line/field."""

from __future__ import annotations

import os

import pytest

from tests.badinput import TINY, Case, altered, check_result, deadline, write_deck


def _validate(text: str | bytes, needles: tuple[str, ...], command: tuple[str, ...] = ("validate", "--simulate", "0")):
    def setup(tmp_path):
        path = write_deck(tmp_path, text)
        return [*command, path], ("deck.toml",) + needles

    return setup


def _tiny(old: str, new: str) -> str:
    return altered(TINY, old, new)


# -- TOML that does not parse (exit 2, the line named) ------------------------------------------
SYNTAX = [
    ("unclosed-string", _tiny('name = "Tiny"', 'name = "Tiny'), ":3"),
    ("missing-value", _tiny('name = "Tiny"', "name = "), ":3"),
    ("duplicate-key", _tiny('name = "Tiny"', 'name = "Tiny"\nname = "Again"'), ":4"),
    ("duplicate-table", TINY + '\n[deck]\nid = "x"\n', ":"),
    ("unclosed-inline-table", _tiny("players = { min = 2, max = 4 }", "players = { min = 2, max = 4"), ":4"),
    ("bare-word", _tiny('name = "Tiny"', "name = Tiny"), ":3"),
    ("bad-escape", _tiny('name = "Tiny"', 'name = "Ti\\qny"'), ":3"),
    ("control-character", _tiny('name = "Tiny"', 'name = "Ti\x01ny"'), ":3"),
    ("unclosed-array", _tiny('name = "Tiny"', 'name = "Tiny"\ncredits = ["a", "b"'), ":"),
    ("unclosed-multiline", _tiny('name = "Tiny"', 'name = """Tiny'), ":"),
    ("line-without-equals", _tiny('name = "Tiny"', "just some words"), ":3"),
    ("unclosed-header", _tiny("[[kinds]]", "[[kinds]"), ":"),
    ("table-then-array", TINY + "\n[[deck]]\n", ":"),
    ("broken-date", _tiny('name = "Tiny"', 'name = "Tiny"\nwhen = 1979-05-27T'), ":4"),
    ("leading-zero", _tiny("count = 2", "count = 02"), ":"),
    ("deep-arrays", _tiny('name = "Tiny"', 'name = "Tiny"\nx = ' + "[" * 3000 + "]" * 3000), ""),
    ("deep-inline-tables", _tiny('name = "Tiny"', 'name = "Tiny"\nx = ' + "{a=" * 3000 + "1" + "}" * 3000), ""),
    ("surrogate-escape", _tiny('name = "Tiny"', 'name = "\\uD800"'), ":3"),
    ("nul-byte", _tiny('name = "Tiny"', 'name = "Ti\x00ny"'), ":3"),
    ("trailing-comma-inline", _tiny("players = { min = 2, max = 4 }", "players = { min = 2, max = 4, }"), ":4"),
    ("key-twice-dotted", _tiny("players = { min = 2, max = 4 }", "players.min = 2\nplayers.min = 3"), ":"),
    ("newline-in-string", _tiny('name = "Tiny"', 'name = "Ti\nny"'), ":3"),
]

# -- files that are not deck files ----------------------------------------------------------------
FILES = [
    ("empty", b"", ("file is empty",)),
    ("whitespace", b"  \n\t\n", ("file is empty",)),
    ("latin-1", TINY.replace("Tiny", "Tin\u00ff").encode("latin-1", "replace"), ("not UTF-8", ":3")),
    ("utf-16", TINY.encode("utf-16"), ("not UTF-8",)),
    ("too-large", ("# padding\n" * 500_000).encode() + TINY.encode(), ("limit",)),
]

# -- the format broken field by field (exit 1, the field named) -----------------------------------
FIELDS = [
    ("id-missing", _tiny('id = "tiny"\n', ""), "deck.id"),
    ("id-number", _tiny('id = "tiny"', "id = 7"), "deck.id"),
    ("id-pattern", _tiny('id = "tiny"', 'id = "Tiny Deck"'), "deck.id"),
    ("id-250-characters", _tiny('id = "tiny"', f'id = "{"t" * 250}"'), "deck.id"),
    ("name-list", _tiny('name = "Tiny"', 'name = ["Tiny"]'), "deck.name"),
    ("players-missing", _tiny("players = { min = 2, max = 4 }\n", ""), "deck.players"),
    ("players-min-text", _tiny("min = 2", 'min = "two"'), "deck.players.min"),
    ("players-min-zero", _tiny("min = 2", "min = 0"), "deck.players.min"),
    ("players-min-over-max", _tiny("min = 2", "min = 9"), "deck.players"),
    ("players-max-huge", _tiny("max = 4", "max = 1000000000000"), "deck.players.max"),
    ("players-max-hundred-million", _tiny("max = 4", "max = 100000000"), "deck.players.max"),
    ("players-min-float", _tiny("min = 2", "min = 2.0"), "deck.players.min"),
    ("card-size-nan", _tiny("players = {", "card_size = { width_mm = nan, height_mm = 88 }\nplayers = {"),
     "deck.card_size"),
    ("card-size-inf", _tiny("players = {", "card_size = { width_mm = inf, height_mm = 88 }\nplayers = {"),
     "deck.card_size"),
    ("card-size-minus-inf", _tiny("players = {", "card_size = { width_mm = 63, height_mm = -inf }\nplayers = {"),
     "deck.card_size"),
    ("card-size-5-metres", _tiny("players = {", "card_size = { width_mm = 5000, height_mm = 7000 }\nplayers = {"),
     "deck.card_size"),
    ("card-size-zero", _tiny("players = {", "card_size = { width_mm = 0, height_mm = 0 }\nplayers = {"),
     "deck.card_size"),
    ("card-size-unknown-name", _tiny("players = {", 'card_size = "huge"\nplayers = {'), "deck.card_size"),
    ("card-size-no-height", _tiny("players = {", "card_size = { width_mm = 63 }\nplayers = {"), "deck.card_size"),
    ("card-size-text", _tiny("players = {", 'card_size = { width_mm = "63", height_mm = 88 }\nplayers = {'),
     "deck.card_size"),
    ("engine-unknown", _tiny("players = {", 'engine = "chess"\nplayers = {'), "deck.engine"),
    ("deck-unknown-field", _tiny('name = "Tiny"', 'name = "Tiny"\ncolour = "red"'), "deck.colour"),
    ("unknown-table", TINY + "\n[extras]\nx = 1\n", "extras"),
    ("kinds-missing", TINY.replace('[[kinds]]\nid = "number"\nname = "Number"\n', ""), "kinds"),
    ("kinds-table", TINY.replace('[[kinds]]\nid = "number"\nname = "Number"\n', '[kinds]\nid = "number"\n'), "kinds"),
    ("kind-id-pattern", _tiny('id = "number"', 'id = "Number!"'), "kinds[0].id"),
    ("suit-colour", _tiny('color = "#c8102e"', 'color = "red"'), "suits[0].color"),
    ("suit-code-long", _tiny('code = "H"', 'code = "HEARTS"'), "suits[0].code"),
    ("suit-no-symbol", _tiny('symbol = "♥"\n', ""), "suits[0].symbol"),
    ("rank-code", _tiny('code = "A"', 'code = "A!"'), "ranks[0].code"),
    ("rank-value-text", _tiny('code = "A"', 'code = "A"\nvalue = "one"'), "ranks[0].value"),
    ("count-zero", _tiny("count = 2", "count = 0"), "cards[0].count"),
    ("count-billion", _tiny("count = 2", "count = 1000000000"), "cards[0].count"),
    ("count-negative", _tiny("count = 2", "count = -1"), "cards[0].count"),
    ("count-float", _tiny("count = 2", "count = 2.5"), "cards[0].count"),
    ("count-bool", _tiny("count = 2", "count = true"), "cards[0].count"),
    ("count-10-to-30", _tiny("count = 2", "count = 1000000000000000000000000000000"), "cards[0].count"),
    ("code-characters", _tiny('code = "JK"', 'code = "J K"'), "cards[0].code"),
    ("card-name-missing", _tiny('name = "Joker"\n', ""), "cards[0].name"),
    ("card-kind-unknown", _tiny('kind = "number"\ncount', 'kind = "spell"\ncount'), "cards[0].kind"),
    ("card-suit-unknown", _tiny("count = 2", 'count = 2\nsuit = "cups"'), "cards[0].suit"),
    ("card-rank-unknown", _tiny("count = 2", 'count = 2\nrank = "emperor"'), "cards[0].rank"),
    ("card-code-duplicate", _tiny('code = "JK"', 'code = "AH"'), "cards[0].code"),
    ("card-id-duplicate", TINY + '\n[[cards]]\nid = "jk"\nname = "Joker"\ncode = "J2"\nkind = "number"\n', "cards[1].id"),
    # No id given: the id comes from the code, so "JK+" (id "jk") meets the first card's "JK".
    ("card-id-from-code-duplicate", TINY + '\n[[cards]]\nname = "Wild Joker"\ncode = "JK+"\nkind = "number"\n',
     "cards[1].code"),
    ("card-text-1-mb", _tiny("count = 2", f'count = 2\ntext = "{"word " * 200_000}"'), "cards[0].text"),
    ("card-name-30k", _tiny('name = "Joker"', f'name = "{"J" * 30_000}"'), "cards[0].name"),
    ("art-outside-folder", _tiny("count = 2", 'count = 2\nart = "../elsewhere.png"'), "cards[0].art"),
    ("art-absolute", _tiny("count = 2", 'count = 2\nart = "/etc/passwd"'), "cards[0].art"),  # system path: refused
    ("props-text", _tiny("count = 2", 'count = 2\nprops = "fast"'), "cards[0].props"),
    ("ruling-unknown", _tiny("count = 2", 'count = 2\nruling = "r9"'), "cards[0].ruling"),
    ("text-unknown-card", _tiny("count = 2", 'count = 2\ntext = "Beats {card:Nope}."'), "cards[0].text"),
    ("text-unknown-rule", _tiny("count = 2", 'count = 2\ntext = "See {rule:nope}."'), "cards[0].text"),
    ("text-unknown-suit", _tiny("count = 2", 'count = 2\ntext = "Any {suit:cups}."'), "cards[0].text"),
    ("section-role", TINY + '\n[[sections]]\nid = "s"\ntitle = "S"\nrole = "epilogue"\n', "sections[0].role"),
    ("rule-no-text", TINY + '\n[[sections]]\nid = "s"\ntitle = "S"\nrole = "play"\n[[sections.rules]]\n'
     'id = "r"\ntitle = "R"\n', "sections[0].rules[0].text"),
    ("rule-id-duplicate", TINY + '\n[[sections]]\nid = "s"\ntitle = "S"\nrole = "play"\n[[sections.rules]]\n'
     'id = "s"\ntitle = "R"\ntext = "t"\n', "sections[0].rules[0].id"),
    ("ruling-incomplete", TINY + '\n[[rulings]]\nid = "r1"\nquestion = "Q?"\n', "rulings[0].decision"),
    ("variant-params-text", TINY + '\n[[variants]]\nid = "v"\nname = "V"\ntext = "t"\nparams = "x"\n',
     "variants[0].params"),
    ("variant-id-duplicate", TINY + '\n[[variants]]\nid = "v"\nname = "V"\ntext = "t"\n'
     '[[variants]]\nid = "v"\nname = "W"\ntext = "t"\n', "variants[1].id"),
    ("back-pattern", TINY + '\n[back]\npattern = "plaid"\n', "back.pattern"),
    ("back-colour", TINY + '\n[back]\ncolor = "#12"\n', "back.color"),
    ("quickref-no-text", TINY + '\n[[quickref]]\ntitle = "T"\n', "quickref[0].text"),
    ("card-set-unknown-suit", _tiny('kind = "number"\n\n[[cards]]', 'kind = "number"\nsuits = ["cups"]\n\n[[cards]]'),
     "card_sets[0].suits"),
    ("card-set-count-million", _tiny('kind = "number"\n\n[[cards]]', 'kind = "number"\ncount = 1000000\n\n[[cards]]'),
     "card_sets[0].count"),
    ("deck-over-100000-cards", TINY + "".join(
        f'\n[[cards]]\nname = "C{i}"\ncode = "C{i}"\nkind = "number"\ncount = 10000\n' for i in range(11)), "cards"),
    ("credits-text", _tiny('name = "Tiny"', 'name = "Tiny"\ncredits = "me"'), "deck.credits"),
    ("opposite-self", _tiny('color = "#c8102e"', 'color = "#c8102e"\nopposite = "hearts"'), "suits[0].opposite"),
    ("opposite-unknown", _tiny('color = "#c8102e"', 'color = "#c8102e"\nopposite = "cups"'), "suits[0].opposite"),
    ("version-number", _tiny('name = "Tiny"', 'name = "Tiny"\nversion = 2'), "deck.version"),
    ("cards-table", TINY.replace("[[cards]]", "[cards]"), "cards"),
    ("suit-code-duplicate", _tiny("[[ranks]]", '[[suits]]\nid = "hats"\nname = "Hats"\nsymbol = "h"\ncode = "h"\n'
                                               'color = "#000000"\n\n[[ranks]]'), "suits[1].code"),
    ("card-id-back", _tiny('name = "Joker"', 'name = "Joker"\nid = "back"'), "cards[0].id"),
    ("card-code-back", _tiny('code = "JK"', 'code = "BACK"'), "cards[0].code"),
    ("bidi-control-in-name", _tiny('name = "Joker"', 'name = "Jo\u202eker"'), "RIGHT-TO-LEFT OVERRIDE"),
    ("description-100k", _tiny('name = "Tiny"', f'name = "Tiny"\ndescription = "{"x" * 100_000}"'),
     "deck.description"),
]


CASES = (
    [Case(f"syntax-{name}", _validate(text, (line,) if line else ("not valid TOML",)), (2,))
     for name, text, line in SYNTAX]
    + [Case(f"file-{name}", _validate(data, needles), (2,)) for name, data, needles in FILES]
    + [Case(f"field-{name}", _validate(text, (field,) if field else ()), (0, 1)) for name, text, field in FIELDS]
)


def _special(kind: str):
    def setup(tmp_path):
        path = tmp_path / "deck.toml"
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        elif kind == "dev-zero":
            return ["validate", "/dev/zero"], ("/dev/zero", "not a regular file")
        elif kind == "loop":
            path.symlink_to(path)
        return ["validate", path], ("deck.toml",)

    return setup


CASES += [Case(f"file-{kind}", _special(kind), (2,)) for kind in ("fifo", "folder", "dev-zero", "missing", "loop")]
CASES += [Case(f"show-{name}", _validate(text, (line,), ("show",)), (2,)) for name, text, line in SYNTAX[:4]]
CASES += [Case(f"show-{name}", _validate(text, (field,), ("show",)), (1,)) for name, text, field in FIELDS[:12]]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_deck(run_cli, tmp_path, case):
    argv, needles = case.setup(tmp_path)
    with deadline():
        result = run_cli(*argv)
    check_result(result, case.codes, needles)
    if case.id.startswith("field-") and needles[1:]:
        assert result.exit_code == 1


def test_deck_limits_are_documented():
    from generator.deck import schema
    from generator.faces import art

    from tests.conftest import ROOT

    doc = (ROOT / "docs" / "deck-format.md").read_text(encoding="utf-8")
    for value in (schema.MAX_COPIES, schema.MAX_DECK_CARDS, schema.MAX_TEXT, schema.MAX_ID, schema.MAX_CARD_MM,
                  schema.MAX_DECK_BYTES // 2**20, art.MAX_ART_PIXELS, art.MAX_ART_BYTES // 2**20):
        assert f"{value:,}" in doc, value
