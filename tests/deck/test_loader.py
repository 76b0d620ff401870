"""The deck loader: every kind of bad input gets a clear, located error and no traceback."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from generator import InvalidDeck, UnreadableInput, load_deck
from generator.deck.loader import check_deck

from tests.badinput import TINY as MINIMAL
from tests.conftest import DECK_PATHS



def write(tmp_path: Path, text: str, name: str = "deck.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    _deck, problems = check_deck(path)
    return [str(p) for p in problems]


def test_minimal_deck_loads(tmp_path):
    deck = load_deck(write(tmp_path, MINIMAL))
    assert [c.code for c in deck.cards] == ["AH", "JK"]
    assert deck.total == 3
    assert deck.find_card("ah").name == "Ace of Hearts"  # codes are case-insensitive


@pytest.mark.parametrize("path", DECK_PATHS, ids=lambda p: p.stem)
def test_every_shipped_deck_loads_cleanly(path):
    deck, problems = check_deck(path)
    assert deck is not None
    assert [p for p in problems if p.severity == "error"] == []


def test_invalid_toml_names_the_line(tmp_path, run_cli):
    path = write(tmp_path, MINIMAL.replace('name = "Tiny"', 'name = "Tiny'))
    result = run_cli("validate", path)
    assert result.exit_code == 2
    assert f"{path}:3:" in result.stderr + result.stdout
    assert "not valid TOML" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_missing_required_field(tmp_path):
    path = write(tmp_path, MINIMAL.replace('code = "JK"\n', ""))
    [message] = problems_of(path)
    assert "cards[0].code: required field is missing" in message
    assert f"{path}:" in message


def test_wrong_type_is_located(tmp_path):
    path = write(tmp_path, MINIMAL.replace("count = 2", 'count = "two"'))
    [message] = problems_of(path)
    assert "cards[0].count: expected integer, found string 'two'" in message
    assert f"{path}:29:" in message


def test_unknown_suit_lists_the_known_ones(tmp_path):
    path = write(tmp_path, MINIMAL.replace('kind = "number"\ncount = 2', 'kind = "number"\nsuit = "hartz"\ncount = 2'))
    [message] = problems_of(path)
    assert "cards[0].suit: unknown suit 'hartz'; known: hearts" in message
    assert f"{path}:29:" in message


def test_unknown_rank_and_kind_are_both_reported(tmp_path):
    text = MINIMAL.replace('kind = "number"\ncount = 2', 'kind = "nmber"\nrank = "king"\ncount = 2')
    messages = problems_of(write(tmp_path, text))
    assert any("unknown kind 'nmber'; known: number" in m for m in messages)
    assert any("unknown rank 'king'; known: ace" in m for m in messages)


def test_duplicate_code_is_case_insensitive(tmp_path):
    path = write(tmp_path, MINIMAL + '\n[[cards]]\nname = "Other"\ncode = "ah"\nkind = "number"\n')
    [message] = problems_of(path)
    assert "duplicate card code 'AH'" in message


def test_duplicate_id(tmp_path):
    path = write(tmp_path, MINIMAL + '\n[[cards]]\nid = "jk"\nname = "Joker"\ncode = "J2"\nkind = "number"\n')
    [message] = problems_of(path)
    assert "duplicate card id 'jk'" in message


def test_a_card_without_an_id_takes_its_code_and_keeps_it_when_renamed(tmp_path):
    deck = load_deck(write(tmp_path, MINIMAL.replace('name = "Joker"', 'name = "Court Jester"')))
    assert [card.id for card in deck.cards if card.code == "JK"] == ["jk"]


def test_an_id_from_a_code_used_twice_names_the_code_field(tmp_path):
    path = write(tmp_path, MINIMAL + '\n[[cards]]\nname = "Wild"\ncode = "J-K"\nkind = "number"\n'
                                     '\n[[cards]]\nname = "Wilder"\ncode = "J+K"\nkind = "number"\n')
    [message] = problems_of(path)
    assert "cards[2].code" in message and "'j-k', from its code 'J+K'" in message
    assert "cards[1] 'Wild'" in message and 'id = "wilder"' in message


@pytest.mark.parametrize("count", ["0", "-3"])
def test_count_must_be_positive(tmp_path, count):
    [message] = problems_of(write(tmp_path, MINIMAL.replace("count = 2", f"count = {count}")))
    assert f"must be at least 1, found {count}" in message


def test_art_outside_the_deck_folder(tmp_path):
    path = write(tmp_path, MINIMAL.replace("count = 2", 'count = 2\nart = "../../etc/passwd"'))
    [message] = problems_of(path)
    assert "cards[0].art" in message and "outside the deck's folder" in message


def test_unknown_reference_in_rule_text(tmp_path):
    text = MINIMAL + """
[[sections]]
id = "tiny.play"
title = "Play"
role = "play"
[[sections.rules]]
id = "tiny.play.lead"
title = "Lead"
text = "Lead the {card:Quaffle} or a {suit:spades}; see {rule:tiny.nothing}."
"""
    messages = problems_of(write(tmp_path, text))
    assert len(messages) == 3
    assert all("sections[0].rules[0].text" in m for m in messages)
    assert any("unknown card 'Quaffle'" in m for m in messages)
    assert any("unknown suit 'spades'" in m for m in messages)
    assert any("unknown rule 'tiny.nothing'" in m for m in messages)


def test_empty_file_is_unreadable(tmp_path, run_cli):
    result = run_cli("validate", write(tmp_path, "\n\n"))
    assert result.exit_code == 2
    assert "file is empty" in result.stdout


def test_non_utf8_bytes_name_the_line(tmp_path, run_cli):
    path = tmp_path / "latin1.toml"
    path.write_bytes(MINIMAL.encode().replace(b'"Tiny"', b'"Tiny Caf\xe9"'))
    with pytest.raises(UnreadableInput) as caught:
        load_deck(path)
    assert caught.value.problem.line == 3
    result = run_cli("validate", path)
    assert result.exit_code == 2 and "not UTF-8" in result.stdout


def test_all_problems_reported_at_once(tmp_path, run_cli):
    text = MINIMAL.replace('code = "JK"', 'code = "AH"').replace('kind = "number"\ncount = 2',
                                                                  'kind = "number"\nsuit = "x"\ncount = 0')
    result = run_cli("validate", write(tmp_path, text))
    assert result.exit_code == 1
    assert "count: must be at least 1" in result.stdout
    # Structure errors stop before meaning checks; fix the count and both meaning errors show.
    result = run_cli("validate", write(tmp_path, text.replace("count = 0", "count = 1")))
    assert "unknown suit 'x'" in result.stdout and "duplicate card code 'AH'" in result.stdout


def test_ten_thousand_cards_load_fast(tmp_path):
    cards = "".join(f'[[cards]]\nname = "Card {i}"\ncode = "C{i}"\nkind = "number"\n' for i in range(10_000))
    path = write(tmp_path, MINIMAL.split("[[cards]]")[0] + cards)
    start = time.perf_counter()
    deck = load_deck(path)
    elapsed = time.perf_counter() - start
    assert deck.total == 10_001
    # Generous bound: this catches accidental quadratic checks, not machine noise.
    assert elapsed < 5


def test_unknown_deck_id_lists_known_decks(run_cli):
    result = run_cli("show", "no-such-deck")
    assert result.exit_code == 2
    assert "no deck 'no-such-deck'" in result.stderr and "wizard" in result.stderr


def test_invalid_deck_from_api_carries_problems(tmp_path):
    with pytest.raises(InvalidDeck) as caught:
        load_deck(write(tmp_path, MINIMAL.replace("count = 2", "count = 0")))
    assert caught.value.problems[0].field == "cards[0].count"
    assert json.dumps(caught.value.problems[0].as_dict())
