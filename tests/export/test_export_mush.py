"""MUSHcode export: escaping rules, and both export styles replayed on a real TinyMUX server.

The server tests paste the export into TinyMUX (Debian's ``tinymux`` package, started by
tests/mushserver.py on 127.0.0.1) and read every card back. Without TinyMUX they are skipped,
except on CI (``CI`` set), where a missing server is a failure: run .ci/install-tinymux.sh.
"""

from __future__ import annotations

import os
import re
import sys
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.export.mush import MAX_LINE_BYTES, SLASH_LOOKALIKE, dvorak_card, escape_mush, render_dvorak
from generator.export.mush_table import card_label, deck_object_name, render_softcode
from tests.mushserver import MushClient, MushServer, tinymux_installed


@dataclass(frozen=True)
class FakeCard:
    name: str
    code: str
    kind: str
    type_line: str
    text: str = ""
    flavor: str = ""
    count: int = 1
    corner: str = ""
    props: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.code.lower()


@dataclass(frozen=True)
class FakeDeck:
    id: str
    name: str
    cards: tuple[FakeCard, ...] = ()
    engine: str | None = None
    params: dict = field(default_factory=dict)
    suits: tuple = ()
    kinds: tuple = ()
    min_players: int = 2
    max_players: int = 4
    trick_rules: None = None  # no [rules] table: no trick game for the rules engine

    def rules(self):
        return iter(())


# Everything that could be evaluated, split, squeezed or garbled on the way in.
HOSTILE_CARDS = (
    FakeCard(
        "[pemit(*wizard,hi)]",
        "H01",
        "seeker",
        "Thing - Player",
        'Literal %r, 100% and %%, a \\ backslash, {braces}; semicolon, comma, (parens), a/slash, "double" \'single\'',
    ),
    FakeCard(
        "Either/Or",
        "H02",
        "action",
        "Action - Spell",
        "First line\nSecond line\n\nFourth line after a blank one",
        "Flavour: with a colon",
        count=2,
    ),
    FakeCard("  Spaced  Out  ", "H03", "thing", "Thing", "  two  leading, double  and trailing spaces  "),
    FakeCard(
        "Ωmega é ü ß",
        "H04",
        "wizard",
        "Thing - Wizard",
        "Greek αβγ ΔΣΩ, German Straße, suits ♠♥♦♣, a playing card beyond the BMP 🂡",
        "Déjà vu",
    ),
    FakeCard("$+pwn *", "H05", "thing", "Thing", "$+pwn *:@pemit *wizard=PWNED", "^pwn*:@pemit *wizard=PWNED"),
    FakeCard(
        "Tab\tand hash # colon : equals = star *", "H06", "number", "Thing - Number", "col1\tcol2 %t \\n [add(1,2)]"
    ),
    FakeCard("Blank", "H07", "action", "Action", ""),
)
HOSTILE_DECK = FakeDeck("hostile", "Hostile [add(1,2)], %r; (test)", HOSTILE_CARDS)
COPIES = [card for card in HOSTILE_CARDS for _copy in range(card.count)]
INJECTION_OUTPUTS = ("hi", "PWNED")  # what the hostile cards print if any of their text runs


# --- escape_mush, pure ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("plain words stay readable", "plain words stay readable"),
        ("[pemit(*wizard,hi)]", r"\[pemit\(*wizard\,hi\)\]"),
        ("100% %r", r"100\% \%r"),
        ("a\\b", r"a\\b"),
        ("{a;b}", r"\{a\;b\}"),
        ("line\nline\r\nline\rline", "line%rline%rline%rline"),
        ("a\tb", "a%tb"),
        ("  two  spaces  ", "%b%btwo%b%bspaces%b%b"),
        (" ", "%b"),
        ("", ""),
        ("é ♠ 🂡 / $ ^ # : = * \" '", "é ♠ 🂡 / $ ^ # : = * \" '"),
    ],
)
def test_escape_mush(text, escaped):
    assert escape_mush(text) == escaped


def test_escape_mush_composes_accents_the_server_would_drop():
    assert escape_mush("e\u0301 u\u0308") == "é ü"  # NFC: TinyMUX drops combining marks


@pytest.mark.parametrize("bad", ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\u2028", "\u2029"])
def test_escape_mush_refuses_characters_no_command_line_can_carry(bad):
    with pytest.raises(ValueError, match=f"U\\+{ord(bad):04X} .*cannot be part of a MUSH command line"):
        escape_mush(f"a{bad}b")


@pytest.mark.parametrize(
    "dropped",
    [
        "\u00ad",  # soft hyphen (format character)
        "\u200d",  # zero-width joiner
        "\ue000",  # private use
        "\U000e0001",  # language tag (format character)
        "q\u0303",  # a combining mark with no composed form
        "\u20bf",  # bitcoin sign, Unicode 10
        "\U0001f97a",  # pleading face, Unicode 11
        "\U0001f9d9",  # mage, Unicode 10
    ],
)
def test_escape_mush_refuses_characters_tinymux_drops(dropped):
    with pytest.raises(ValueError, match="TinyMUX 2.12 silently drops it"):
        escape_mush(dropped)


def test_exports_name_the_card_with_unsendable_text():
    bell = FakeCard("Bell", "B1", "thing", "Thing", "ring\x07")
    mage = FakeCard("Mage", "M1", "wizard", "Thing - Wizard", flavor="\U0001f9d9")
    for render in (render_dvorak, render_softcode):
        with pytest.raises(ValueError, match=r"card 'Bell' \(B1\): its text contains U\+0007"):
            render(FakeDeck("d", "D", (bell,)), [bell])
        with pytest.raises(ValueError, match=r"card 'Mage' \(M1\): its flavor contains U\+1F9D9 MAGE"):
            render(FakeDeck("d", "D", (mage,)), [mage])


def test_exports_refuse_lines_the_server_would_cut():
    card = FakeCard("Long", "L1", "thing", "Thing", "x" * MAX_LINE_BYTES)
    with pytest.raises(ValueError, match="TinyMUX cuts input lines"):
        render_dvorak(FakeDeck("d", "D", (card,)), [card])
    # The table shows a card in one message: it names the card and the limit before any line is cut.
    with pytest.raises(ValueError, match=r"card 'Long' \(L1\): its name, type line, text and flavour come to "
                                         r"\d+ bytes; .* so at most 6000"):
        render_softcode(FakeDeck("d", "D", (card,)), [card])


@pytest.mark.parametrize(("card", "message"), [
    (FakeCard("N" * 101, "N1", "thing", "Thing"), r"card 'N{40}'\.\.\. \(N1\): its name is 101 characters; .* at most 100"),
    (FakeCard("Spaced code", "A B", "thing", "Thing"), r"card 'Spaced code' \(A B\): its code 'A B' must be 1 to 24"),
])
def test_the_table_refuses_cards_it_could_not_show_whole(card, message):
    with pytest.raises(ValueError, match=message):
        render_softcode(FakeDeck("d", "D", (card,)), [card])
    with pytest.raises(ValueError, match="deck 'd': its name is 150 characters; .* at most 100"):
        render_softcode(FakeDeck("d", "D" * 150, (HOSTILE_CARDS[0],)), [HOSTILE_CARDS[0]])


# --- Dvorak style, pure ------------------------------------------------------------------


GUARD = "@switch/first [isdbref(locate(me,Dvorak Engine,n))]=1,{"


def test_dvorak_export_has_the_wiki_shape_behind_a_guard():
    lines = render_dvorak(HOSTILE_DECK, HOSTILE_CARDS).splitlines()
    comments = [line for line in lines if line.startswith("@@")]
    assert "NEEDS THE DVORAK ENGINE" in comments[1]
    commands = lines[len(comments):]
    assert commands[0].startswith("think [setq(n,")
    assert "][ifelse(isdbref(locate(me,Dvorak Engine,n)),Loading the %qn deck" in commands[0]
    assert all(line.startswith(GUARD) and line.endswith("}") for line in commands[1:])
    inner = [line[len(GUARD):-1] for line in commands[1:]]
    assert inner[0] == "cleardeck"
    assert all(line.startswith("loadcard ") for line in inner[1:-1])
    assert len(inner[1:-1]) == len(COPIES)  # one loadcard per copy: count 2 loads twice
    assert inner[-1].startswith("@emit ")


def test_dvorak_type_letter_and_fields():
    assert dvorak_card(FakeCard("Spell", "S", "action", "Action - Spell")).type_letter == "A"
    assert dvorak_card(FakeCard("Odd", "O", "custom", "Action")).type_letter == "A"
    assert dvorak_card(FakeCard("Pet", "P", "thing", "Thing - Pet")).type_letter == "T"
    assert dvorak_card(FakeCard("Rule", "R", "rule", "Basic Rule")).type_letter == "T"
    card = dvorak_card(FakeCard("Fight/Flight", "F", "thing", "Thing", "Roll a 1/2.", "Run!"))
    assert card.title == f"Fight{SLASH_LOOKALIKE}Flight"
    assert card.text == 'Roll a 1/2. ("Run!")'


def test_dvorak_keeps_corner_values_and_type_lines():
    trick = dvorak_card(FakeCard("Trick Play", "T", "action", "Action - Manoeuvre", "Toss.", corner="+4/2/1"))
    assert trick.title == f"Trick Play (+4{SLASH_LOOKALIKE}2{SLASH_LOOKALIKE}1)"
    assert trick.text == "Action - Manoeuvre: Toss."
    assert (trick.colour, trick.type_line, trick.dvorax_text) == ("hr", "Action - Manoeuvre", "Toss.")
    assert dvorak_card(FakeCard("Sweep", "S", "thing", "Thing", "Go.", corner="+3")).title == "Sweep (+3)"
    assert dvorak_card(FakeCard("Seek", "K", "seeker", "Seeker")).colour == "hw"
    assert dvorak_card(FakeCard("Either/Or", "E", "thing", "Thing"), slash="|").title == "Either|Or"


# --- softcode style, pure ----------------------------------------------------------------


def test_softcode_lines_are_comments_or_think():
    """Every line but the last only sets attributes; the last places and checks the table."""
    *lines, last = render_softcode(HOSTILE_DECK, list(HOSTILE_CARDS)).splitlines()
    for line in lines:
        assert line.startswith(("@@ ", "think ")), line
    assert last.startswith("@switch/first [v(DECKGEN.MODE)]")


def test_a_sixty_card_deck_is_a_few_pasted_lines():
    """TinyMUX's default quota lets a burst of 100 commands through at once."""
    cards = [FakeCard(f"Card {n}", f"C{n}", "thing", "Thing - Number", "Some rules text, of a usual length. " * 4,
                      "A line of flavour.") for n in range(60)]
    lines = [line for line in render_softcode(FakeDeck("sixty", "Sixty"), cards).splitlines()
             if not line.startswith("@@")]
    assert len(lines) < 40


@pytest.mark.parametrize(("name", "object_name"), [
    ("Quidditch", "Quidditch Deck"),
    ("Basic Rules deck", "Basic Rules deck"),
    (" Rock/Paper \n Scissors ", "Rock/Paper Scissors Deck"),
    ("A=B & C|D", "A B C D Deck"),
    ("#1 ♠ Spades Ωmega", "1 Spades mega Deck"),
    ("*!#", "hostile Deck"),
    ("Straße é", "Straße é Deck"),
    ("Ōmega ĀĒ", "Omega AE Deck"),
])
def test_deck_object_name(name, object_name):
    assert deck_object_name(FakeDeck("hostile", name)) == object_name


# --- on a real TinyMUX server ------------------------------------------------------------


@pytest.fixture(scope="module")
def mush_server():
    if not tinymux_installed():
        if os.environ.get("CI"):
            pytest.fail("TinyMUX is not installed on CI: run .ci/install-tinymux.sh before pytest")
        pytest.skip("TinyMUX is not installed (sudo .ci/install-tinymux.sh); CI runs these tests")
    with MushServer() as server:
        yield server


@pytest.fixture(scope="module")
def wizard(mush_server):
    with mush_server.client() as client:
        yield client


def paste(client: MushClient, export: str, tmp_path: Path) -> str:
    """Send an export the way a user pastes it: the file, line by line."""
    path = tmp_path / "export.mush"
    path.write_text(export, encoding="utf-8")
    return client.send_file(path)


def read_attribute(client: MushClient, obj: str, attribute: str) -> str:
    """The attribute's value exactly: the angle brackets show where it starts and ends."""
    shown = client.command(f"think <[get({escape_mush(obj)}/{attribute})]>")
    assert shown.startswith("<") and shown.endswith(">"), shown
    return shown[1:-1]


def assert_nothing_injected(output: str) -> None:
    lines = output.split("\n")
    for injected in INJECTION_OUTPUTS:
        assert injected not in lines, f"hostile card text ran on the server and printed {injected!r}"


def assert_pasted_cleanly(output: str) -> None:
    assert_nothing_injected(output)
    assert "Huh?" not in output and "I don’t" not in output, output


# A stand-in for the Dvorak Engine (its real code is not published): `$`-commands with the
# wiki's loadcard syntax. Like a careful engine it keeps card data on a NO_COMMAND object,
# so card text that looks like a $-command stays data.
TOY_DVORAK_ENGINE = [
    "@create Dvorak Engine",
    "@set Dvorak Engine=!NO_COMMAND",
    "@create Dvorak Engine Cards",
    "@set Dvorak Engine Cards=NO_COMMAND",
    "think set(Dvorak Engine,DATA:[num(Dvorak Engine Cards)])",
    "&CMD.CLEARDECK Dvorak Engine=$cleardeck:@wipe [v(DATA)]/CARD.*;&COUNT me=0;@pemit %#=Deck cleared.",
    "&CMD.LOADCARD Dvorak Engine=$loadcard */*/*:&COUNT me=[add(v(COUNT),1)];"
    "&CARD.[v(COUNT)].TITLE [v(DATA)]=%0;&CARD.[v(COUNT)].TYPE [v(DATA)]=%1;"
    "&CARD.[v(COUNT)].TEXT [v(DATA)]=%2;@pemit %#=Loaded card [v(COUNT)].",
    "drop Dvorak Engine",
]


def test_unicode_needs_a_client_that_negotiates_utf8(mush_server):
    """Why the exports tell users to let their client negotiate UTF-8: TinyMUX reads the
    bytes of a client that does not as Latin-1, which garbles ♠ and miscounts é."""
    with mush_server.client(negotiate_utf8=True) as utf8_client:
        assert utf8_client.command("think [strlen(é)] ♠ 🂡") == "1 ♠ 🂡"
    with mush_server.client(negotiate_utf8=False) as latin1_client:
        assert latin1_client.command("think [strlen(é)] ♠") != "1 ♠"


def test_dvorak_export_round_trip(wizard, tmp_path):
    wizard.send_lines(TOY_DVORAK_ENGINE)
    output = paste(wizard, render_dvorak(HOSTILE_DECK, HOSTILE_CARDS), tmp_path)

    assert_pasted_cleanly(output)
    assert output.split("\n")[0] == f"Loading the {HOSTILE_DECK.name} deck into the Dvorak Engine..."
    assert output.split("\n")[1] == "Deck cleared."
    assert f"Loaded card {len(COPIES)}." in output
    assert output.split("\n")[-1] == (
        f"Wizard loaded the {HOSTILE_DECK.name} deck into the Dvorak Engine: {len(COPIES)} cards."
    )
    assert read_attribute(wizard, "Dvorak Engine", "COUNT") == str(len(COPIES))
    for number, card in enumerate(COPIES, start=1):
        expected = dvorak_card(card)
        assert read_attribute(wizard, "Dvorak Engine Cards", f"CARD.{number}.TITLE") == expected.title
        assert read_attribute(wizard, "Dvorak Engine Cards", f"CARD.{number}.TYPE") == expected.type_letter
        assert read_attribute(wizard, "Dvorak Engine Cards", f"CARD.{number}.TEXT") == expected.text


def created_object(output: str) -> str:
    """The dbref the softcode export reports on its last line."""
    match = re.search(r"^Loaded the .* deck as (#\d+): \d+ cards\. Type \+deckhelp\.$", output, re.MULTILINE)
    assert match, output
    return match[1]


def test_softcode_export_round_trip(wizard, tmp_path):
    output = paste(wizard, render_softcode(HOSTILE_DECK, list(HOSTILE_CARDS)), tmp_path)

    assert_pasted_cleanly(output)
    assert "FAILED" not in output and "#-1" not in output, output
    deck_object = created_object(output)
    assert read_attribute(wizard, deck_object, "DECKNAME") == HOSTILE_DECK.name
    for number, card in enumerate(COPIES, start=1):
        assert read_attribute(wizard, deck_object, f"CARD.{number}.NAME") == card.name
        assert read_attribute(wizard, deck_object, f"CARD.{number}.LABEL") == card_label(card)
        assert read_attribute(wizard, deck_object, f"CARD.{number}.TEXT") == card.text
        assert read_attribute(wizard, deck_object, f"CARD.{number}.FLAVOR") == card.flavor
    # Card text that looks like a $-command stays data (its attribute is set no_command).
    assert_nothing_injected(wizard.command("+pwn x"))
    # The table's code arrived exactly as the template writes it.
    from generator.export.mush_table import table_code, table_data
    from generator.export.setup import table_setup

    for attribute in table_code(table_data(HOSTILE_DECK, table_setup(HOSTILE_DECK))):
        assert read_attribute(wizard, deck_object, attribute.name) == attribute.value, attribute.name


def test_a_second_deck_of_the_same_name_loads_on_its_own(wizard, tmp_path):
    """Every line addresses the new object by dbref: a namesake in the room changes nothing."""
    first = created_object(paste(wizard, render_softcode(HOSTILE_DECK, list(HOSTILE_CARDS)), tmp_path))
    second = created_object(paste(wizard, render_softcode(HOSTILE_DECK, list(HOSTILE_CARDS)), tmp_path))
    assert first != second
    assert read_attribute(wizard, second, "COUNT") == str(len(COPIES))


def test_softcode_reports_failure_when_the_object_cannot_be_created(mush_server, tmp_path):
    """A character without the right to build gets one clear failure, not a false success."""
    with mush_server.client() as wizard:
        wizard.command("@pcreate Apprentice=apprenticepw")
        wizard.command("give *Apprentice=-[money(*Apprentice)]")  # creating an object costs 10 pennies
        with mush_server.client(name="Apprentice", password="apprenticepw", queue_watcher=wizard) as apprentice:
            output = paste(apprentice, render_softcode(HOSTILE_DECK, list(HOSTILE_CARDS)), tmp_path)
    assert "Sorry, you don’t have enough Pennies." in output  # the server's reason
    assert "FAILED: could not create the deck object" in output
    # The server refuses to queue the last line's checks for a character without money; the
    # line before it has already said so.
    assert output.split("\n")[-2:] == ["FAILED: the deck did not load completely.",
                                        "Not enough money to queue command."]
    assert "Loaded the" not in output


@pytest.fixture(scope="module")
def probe(wizard):
    """An object whose `$`-command stores its argument, as a Dvorak Engine's loadcard does."""
    wizard.send_lines(["@create Probe", "@set Probe=!NO_COMMAND", "&CMD.PROBE Probe=$probe <*>:&PROBED me=%0"])
    return "Probe"


def accepted_by_exporter(char: str) -> bool:
    try:
        escape_mush(char)
    except ValueError:
        return False
    return True


def test_every_character_the_exporter_accepts_arrives_intact(wizard, probe):
    """The UTF-8 finding, exhaustively: each code point escape_mush accepts is stored and read
    back unchanged by TinyMUX over a UTF-8 connection (1000 characters per command)."""
    candidates = (chr(code) for code in range(sys.maxunicode + 1))
    accepted = [
        char
        for char in candidates
        # Quick pre-filter: the exporter refuses unassigned, private-use and surrogate code points
        # outright (tested above); "\r" is accepted as a newline, so it comes back as "\n".
        if unicodedata.category(char) not in ("Cn", "Co", "Cs") and char != "\r" and accepted_by_exporter(char)
    ]
    for start in range(0, len(accepted), 1000):
        chunk = "".join(accepted[start : start + 1000])
        wizard.command(f"think set({probe},SCAN:{escape_mush(chunk)})")
        stored = read_attribute(wizard, probe, "SCAN")
        expected = unicodedata.normalize("NFC", chunk)
        lost = sorted(set(expected) - set(stored))
        assert stored == expected, f"lost or changed: {[f'U+{ord(char):04X}' for char in lost][:20]}"


# Any text the exporter accepts must come back exactly, in both places it is used.
sendable_text = st.text(
    alphabet=st.one_of(
        st.sampled_from(" \n\t\\%[]{}(),;/$^#:=*\"'<>"),
        st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")).filter(accepted_by_exporter),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(text=sendable_text)
def test_escaped_text_survives_one_evaluation_on_the_server(wizard, probe, text):
    expected = unicodedata.normalize("NFC", text)
    wizard.command(f"probe <{escape_mush(text)}>")  # a $-command argument
    assert read_attribute(wizard, probe, "PROBED") == expected
    wizard.command(f"think set({probe},PROBED:{escape_mush(text)})")  # a function argument
    assert read_attribute(wizard, probe, "PROBED") == expected


@pytest.fixture
def empty_room(wizard):
    """The wizard in a room of its own for one test, then back where it was."""
    home = wizard.command("think [loc(me)]")
    wizard.command("@dig/teleport Empty Room")
    yield
    wizard.command(f"@tel me={home}")


def test_dvorak_export_stops_clearly_without_the_engine(wizard, empty_room, tmp_path):
    output = paste(wizard, render_dvorak(HOSTILE_DECK, HOSTILE_CARDS), tmp_path)
    assert output == (f"STOPPED: there is no Dvorak Engine in this room. This file needs DvorakMUSH's Dvorak "
                      "Engine: nothing will be loaded. Use the default export (deckgen export mush) on other servers.")


# A stand-in for a Dvorax engine: loadcard with four fields.
TOY_DVORAX_ENGINE = [
    "@create Dvorak Engine",
    "@set Dvorak Engine=!NO_COMMAND",
    "@create Dvorax Cards",
    "@set Dvorax Cards=NO_COMMAND",
    "think set(Dvorak Engine,DATA:[num(Dvorax Cards)])",
    "&CMD.CLEARDECK Dvorak Engine=$cleardeck:&COUNT me=0",
    "&CMD.LOADCARD Dvorak Engine=$loadcard */*/*/*:&COUNT me=[add(v(COUNT),1)];"
    "&CARD.[v(COUNT)] [v(DATA)]=%0|%1|%2|%3",
    "drop Dvorak Engine",
]


def test_dvorax_export_round_trip(wizard, empty_room, tmp_path):
    wizard.send_lines(TOY_DVORAX_ENGINE)
    cards = (*HOSTILE_CARDS, FakeCard("Trick Play", "TP", "action", "Action - Manoeuvre", "Toss.", corner="+4/2/1"))
    output = paste(wizard, render_dvorak(HOSTILE_DECK, cards, dvorax=True), tmp_path)
    assert_pasted_cleanly(output)
    copies = [card for card in cards for _copy in range(card.count)]
    assert read_attribute(wizard, "Dvorak Engine", "COUNT") == str(len(copies))
    for number, card in enumerate(copies, start=1):
        expected = dvorak_card(card)
        stored = read_attribute(wizard, "Dvorax Cards", f"CARD.{number}")
        if "/" in card.text or "/" in card.flavor:
            continue  # the engine's last wildcard, not the export, decides where a "/" in text goes
        assert stored == f"{expected.colour}|{expected.title}|{expected.type_line}|{expected.dvorax_text}"


def test_latin1_export_arrives_intact_from_a_latin1_client(mush_server, wizard):
    """--charset latin1: what a PennMUSH 1.8 (Latin-1 only) or a client without UTF-8 gets."""
    from generator.export.mush import in_latin1

    suits = (type("Suit", (), {"id": "spades", "symbol": "♠", "name": "Spades"})(),)
    deck = FakeDeck("latin", "Ωmega ♠ Deck", HOSTILE_CARDS[:4], suits=suits)
    latin_deck, latin_cards = in_latin1(deck, list(deck.cards))
    assert latin_deck.name == "Omegamega Spades Deck"
    assert latin_cards[3].name == "Omegamega é ü ß"
    assert latin_cards[3].text.startswith("Greek alphabetagamma DeltaSigmaOmega, German Straße, suits Spades")
    text = render_softcode(latin_deck, latin_cards, charset="latin1")
    text.encode("latin-1")  # every character is Latin-1
    wizard.command("@pcreate Latin=latinpw")
    wizard.command("@tel *Latin=here")
    with mush_server.client(name="Latin", password="latinpw", negotiate_utf8=False, encoding="latin-1",
                            queue_watcher=wizard) as latin:
        output = latin.send_lines(line for line in text.split("\n") if line.strip())
        thing = created_object(output)
        wizard.sync()
        assert read_attribute(wizard, thing, "DECKNAME") == latin_deck.name
        latin_copies = [card for card in latin_cards for _copy in range(card.count)]
        for number, card in enumerate(latin_copies, start=1):
            assert read_attribute(wizard, thing, f"CARD.{number}.NAME") == card.name
            assert read_attribute(wizard, thing, f"CARD.{number}.TEXT") == card.text
    seen = ""
    for _attempt in range(100):  # the room hears of the disconnection a moment later
        seen += wizard.sync()
        if "Latin has disconnected." in seen:
            break
        time.sleep(0.02)


HOSTILE_DECK_NAMES = ["Rock/Paper∕Scissors", "Salt & Pepper", "Either|Or", "♠ Spades ♠", "Ωmega", "#1 Deck",
                      "*Star*", "!Bang", "A=B", "No\u00a0break", "Straße é ÿ", "Ōmega ĀĒ", "  ", "[add(1,2)] %r {x}; y,z", "x" * 300]


@pytest.mark.parametrize("name", HOSTILE_DECK_NAMES)
def test_the_server_accepts_every_object_name_the_export_writes(wizard, name):
    object_name = deck_object_name(FakeDeck("hostile", name))
    dbref = wizard.command(f"think [create({escape_mush(object_name)},10)]")
    assert re.fullmatch(r"#\d+", dbref), (object_name, dbref)
    assert wizard.command(f"think [name({dbref})]") == object_name
    wizard.command(f"@destroy/override {dbref}")


def test_name_characters_agree_with_the_server(wizard):
    """Every character the exporter keeps in a name is accepted by TinyMUX, and the ones it
    drops from the start of a name are refused there."""
    from generator.export.mush_table import _allowed_in_name

    kept = [chr(code) for code in range(0x20, 0x100)
            if _allowed_in_name(chr(code)) and chr(code) != " " and accepted_by_exporter(chr(code))]
    probe = escape_mush("x" + "".join(kept) + "y")
    dbref = wizard.command(f"think [create({probe},10)]")
    assert re.fullmatch(r"#\d+", dbref), dbref
    wizard.command(f"@destroy/override {dbref}")
    for first in "#*!":
        assert wizard.command(f"think [create({escape_mush(first + 'abc')},10)]").endswith("#-1")
    for refused in "&=|\u00a0\u2215\u2660\u03a9":
        assert wizard.command(f"think [create({escape_mush('a' + refused + 'b')},10)]").endswith("#-1")
