"""`diff --rev` on a repository that holds a link to an absolute path (or out of the deck's
folder) says which file and why, instead of failing inside tarfile."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.badinput import TINY

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(folder, *args):
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"})  # system path: where git is


@pytest.mark.parametrize("target, words", [  # system path: a link's target, never read
    ("/etc/passwd", "is a link to an absolute path (/etc/passwd)"),  # system path: the same, in the message
    ("../../outside.png", "is a link to outside the deck's folder")])
def test_a_committed_link_out_of_the_folder_is_a_clear_error(run_cli, tmp_path, target, words):
    folder = tmp_path / "repo"
    folder.mkdir()
    deck = folder / "tiny.toml"
    deck.write_text(TINY, encoding="utf-8")
    (folder / "art.png").symlink_to(target)
    _git(folder, "init", "-q")
    _git(folder, "add", ".")
    _git(folder, "commit", "-q", "-m", "a deck and a link")
    result = run_cli("diff", deck, "--rev", "HEAD")
    assert result.exit_code == 2, result.stderr
    assert f"git revision 'HEAD': art.png {words}" in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
