"""`deckgen diff` compares art by its bytes, never its path: two copies of a deck in different
folders do not differ, and a card whose picture changed is the only one marked for reprint."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.designer.tidepool import art, make


def test_copies_in_two_folders_do_not_differ(tmp_path, run_cli):
    old = make(tmp_path / "v1")
    shutil.copytree(old.parent, tmp_path / "v2")
    result = run_cli("diff", old, tmp_path / "v2" / "tidepool.toml")
    assert result.exit_code == 0, result.stdout
    assert "no differences" in result.stdout


def test_only_the_card_whose_art_changed_is_reprinted(tmp_path, run_cli):
    old = make(tmp_path / "v1")
    shutil.copytree(old.parent, tmp_path / "v2")
    art(tmp_path / "v2" / "art" / "conch.png", (200, 60, 60))
    result = run_cli("diff", old, tmp_path / "v2" / "tidepool.toml", "--json")
    assert result.exit_code == 1, result.stdout
    report = json.loads(result.stdout)
    changed = [c for c in report["changes"] if c.get("printed")]
    assert [c["id"] for c in changed] == ["co"], changed  # the Conch, its id from its code


def test_rev_head_of_an_unchanged_checkout_does_not_differ(tmp_path, run_cli):
    deck = make(tmp_path / "repo")
    git = ["git", "-C", str(deck.parent), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "v1"], check=True)
    result = run_cli("diff", deck, "--rev", "HEAD")
    assert result.exit_code == 0, result.stdout
    art(deck.parent / "art" / "conch.png", (200, 60, 60))
    changed = json.loads(run_cli("diff", deck, "--rev", "HEAD", "--json").stdout)["changes"]
    assert [c["id"] for c in changed if c.get("printed")] == ["co"]
