"""`deckgen build` with nothing to do, answered by the quick entry point (`generator.fastcli`,
deciding through `generator.uptodate`) without typer, against the typer app: the same bytes
on stdout and stderr, the same exit code, and not one file touched. Anything that could make
an output stale (an edited deck, spreadsheet, shared layout, font, icon, art or translation,
an output file deleted or replaced, other options, new code, a missing output folder) must
send the build to typer, which builds: an "up to date" that is not is the worst bug here."""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator import cli, deckcache, fastcli, uptodate
from tests.badinput import TINY
from tests.conftest import ROOT

DESIGNER = ROOT / "examples" / "designer"  # shared layouts, fonts, icons, PNG and SVG art
OVERLAY = """\
[translation]
lang = "de"
name = "Deutsch"

[deck]
name = "Winzig"
"""
DECKS, OUTPUT = "decks", "output"
BUILD = ["build", "--decks-dir", DECKS, "--output", OUTPUT]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """Two decks (the designer example, and a tiny one with a German overlay: a note in its
    report) built with every translation, at `work/`; `pristine/` keeps a copy."""
    base = tmp_path_factory.mktemp("noop-build")
    work = base / "work"
    shutil.copytree(DESIGNER, work / DECKS)
    (work / DECKS / "tiny.toml").write_text(TINY, encoding="utf-8")
    (work / DECKS / "translations").mkdir()
    (work / DECKS / "translations" / "tiny.de.toml").write_text(OVERLAY, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(work)
        patch.setenv("XDG_CACHE_HOME", str(base / "cache"))
        assert cli.main([*BUILD, "--lang", "all", "--jobs", "1"]) == 0
    shutil.copytree(work, base / "pristine", symlinks=True)
    return base


def restore(folder: Path) -> None:
    """The built folder as it was built: deck inputs copied, output files hard-linked (same
    inode and time, as the manifest recorded them: no file needs hashing)."""
    for child in folder.iterdir():  # the folder stays: it is the working folder
        shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    shutil.copytree(folder.parent / "pristine" / DECKS, folder / DECKS, symlinks=True)
    shutil.copytree(folder.parent / "pristine" / OUTPUT, folder / OUTPUT, symlinks=True, copy_function=os.link)


@pytest.fixture
def work(pristine, monkeypatch, capsys):
    folder = pristine / "work"
    restore(folder)
    monkeypatch.chdir(folder)
    monkeypatch.delenv("DECKGEN_DEBUG", raising=False)
    capsys.readouterr()
    return folder


def snapshot(folder: Path) -> dict:
    """Every file and folder below `folder`: kind, mode, size, time, inode and hash."""
    found = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() and not path.is_symlink() else ""
        found[str(path.relative_to(folder))] = (info.st_mode, info.st_size, info.st_mtime_ns, info.st_ino, digest)
    return found


def quick_only(argv, capsys, monkeypatch):
    """`deckgen ARGV` through the quick entry point, failing if it hands the command to typer."""
    def typer_main(_argv=None):
        raise AssertionError(f"{argv} went to typer")

    with monkeypatch.context() as patch:
        patch.setattr(cli, "main", typer_main)
        capsys.readouterr()
        code = fastcli.main(list(argv))
    return (code, *capsys.readouterr())


def typer_path(argv, capsys):
    capsys.readouterr()
    code = cli.main(list(argv))
    return (code, *capsys.readouterr())


NOOPS = [
    BUILD, [*BUILD, "--json"], [*BUILD, "--jobs", "1"], [*BUILD, "-j", "2", "--json"], [*BUILD, "--jobs=0"],
    ["build", "--decks-dir=decks", "-o", OUTPUT], ["build", "--output=output", "--decks-dir", DECKS, "--debug"],
    ["--debug", *BUILD], [*BUILD, "--lang", "all"], [*BUILD, "--lang", "de"], [*BUILD, "--lang=all", "--json"],
    [*BUILD, "--json", "--json"],
]


@pytest.mark.parametrize("argv", NOOPS, ids=" ".join)
def test_a_no_op_build_prints_and_exits_as_typer_does_and_touches_nothing(argv, work, capsys, monkeypatch,
                                                                          tmp_path):
    before = snapshot(work)
    assert fastcli.plan(argv) is not None
    quick = quick_only(argv, capsys, monkeypatch)
    assert snapshot(work) == before
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))  # no deck id remembered yet
    cold = quick_only(argv, capsys, monkeypatch)
    assert snapshot(work) == before
    typer = typer_path(argv, capsys)
    assert snapshot(work) == before
    assert quick == cold == typer
    code, out, err = typer
    assert (code, err) == (0, "")
    if "--json" in argv:
        assert all(deck["ok"] and deck["built"] == [] for deck in json.loads(out))
    else:
        assert out.count("built nothing") == len(out.splitlines()) >= 1


def test_the_report_names_each_deck_and_translation_with_its_note(work, capsys, monkeypatch):
    code, out, err = quick_only([*BUILD, "--lang", "all"], capsys, monkeypatch)
    steps = ", ".join(name for name, _ in uptodate.STEPS)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"cauldron-club: built nothing, reused {steps} -> output/cauldron-club/",
        f"tiny: built nothing, reused {steps} -> output/tiny/",
        f"tiny [de]: built nothing, reused {steps} -> output/tiny/de/ (76 texts not translated; "
        "`deckgen validate decks/tiny.toml --lang de` lists them)",
    ]


def test_a_no_op_build_loads_no_heavy_library_and_exits_as_typer(work):
    """A whole `deckgen build` process: nothing of typer, the build or its libraries."""
    probe = ("import sys; from generator.fastcli import main; code = main(sys.argv[1:]); "
             "print('MODULES', code, *sorted(sys.modules))")
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache")}
    for run in ("cold", "warm"):
        done = subprocess.run([sys.executable, "-c", probe, *BUILD], cwd=work, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        code, *modules = done.stdout.splitlines()[-1].split()[1:]
        assert code == "0", run
        assert not {name.split(".")[0] for name in modules} & {"typer", "click", "rich", "reportlab", "PIL",
                                                                "jinja2", "fontTools", "pyphen", "uharfbuzz"}, run
        assert not {"generator.build", "generator.loader", "generator.model", "dataclasses"} & set(modules), run
    script = subprocess.run([sys.executable, "-m", "generator", *BUILD], cwd=work, env=env, capture_output=True,
                            timeout=120)
    typer = subprocess.run([sys.executable, "-c", "import sys; from generator.cli import main; main()", *BUILD],
                           cwd=work, env=env, capture_output=True, timeout=120)
    assert (script.returncode, script.stdout, script.stderr) == (typer.returncode, typer.stdout, typer.stderr)


def _flip_a_byte(path: Path) -> None:
    """Change one byte, keeping the size and the modification time."""
    info = path.stat()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _replace(path: Path, data: bytes) -> None:
    """Put new bytes at `path` as a single command does (a new file renamed over it): the
    output folders are hard links to the pristine copy."""
    temporary = path.with_name(path.name + ".new")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def falls_back(argv, capsys, monkeypatch) -> bool:
    """Whether the quick entry point hands `deckgen ARGV` to typer (which is not run)."""
    with monkeypatch.context() as patch:
        patch.setattr(cli, "main", lambda _argv=None: "typer")
        capsys.readouterr()
        handed = fastcli.main(list(argv)) == "typer"
    capsys.readouterr()
    return handed


def _inputs(work: Path) -> list[str]:
    """Every input file the builds recorded (some as given, art, fonts and icons resolved),
    relative to the work folder."""
    names = set()
    for manifest in (work / OUTPUT).rglob(uptodate.MANIFEST):
        for entry in json.loads(manifest.read_text()).values():
            names |= {os.path.relpath(name, work) for name in entry["inputs"]}
    return sorted(names)


def test_every_input_the_manifests_record_is_every_file_of_the_decks_folder(work):
    """So the sweep below edits every input: deck files, layouts, fonts, icons, art, overlay."""
    every = {str(path.relative_to(work)) for path in (work / DECKS).rglob("*") if path.is_file()}
    assert set(_inputs(work)) == every - {"decks/fonts/LICENSE-Liberation.txt"}


@pytest.mark.parametrize("argv", [BUILD + ["--lang", "all"], BUILD + ["--lang", "all", "--json"]], ids=["text", "json"])
def test_any_input_edited_keeping_its_size_and_time_is_rebuilt(argv, work, capsys, monkeypatch):
    for name in _inputs(work):
        path = work / name
        original = path.read_bytes(), path.stat().st_mtime_ns
        _flip_a_byte(path)
        assert falls_back(argv, capsys, monkeypatch), name
        path.write_bytes(original[0])
        os.utime(path, ns=(original[1], original[1]))
        assert not falls_back(argv, capsys, monkeypatch), f"{name} restored"


def test_an_input_touched_but_unchanged_is_no_reason_to_rebuild(work, capsys, monkeypatch):
    for name in _inputs(work):
        os.utime(work / name)
    assert not falls_back(BUILD, capsys, monkeypatch)


def _output_files(work: Path) -> list[Path]:
    return sorted(path for path in (work / OUTPUT).rglob("*") if path.is_file() and path.name != uptodate.MANIFEST)


def test_any_output_file_with_other_bytes_is_rebuilt(work, capsys, monkeypatch):
    files = _output_files(work)
    assert len(files) > 50
    for path in files:
        original = path.read_bytes()
        _replace(path, original[:-1] + bytes([original[-1] ^ 1]) if original else b"x")
        assert falls_back([*BUILD, "--lang", "all"], capsys, monkeypatch), path
        _replace(path, original)  # the same bytes in a new file: hashed, found equal
        assert not falls_back([*BUILD, "--lang", "all"], capsys, monkeypatch), path


@pytest.mark.parametrize("damage", ["deleted", "a symbolic link", "a folder"])
def test_an_output_file_deleted_or_replaced_is_rebuilt(damage, work, capsys, monkeypatch):
    for path in _output_files(work)[::7]:
        saved = path.with_name(path.name + ".saved")
        os.replace(path, saved)
        if damage == "a symbolic link":
            path.symlink_to(saved)  # the same bytes, through a link: never reused
        elif damage == "a folder":
            path.mkdir()
        assert falls_back([*BUILD, "--lang", "all"], capsys, monkeypatch), (damage, path)
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink(missing_ok=True)
        os.replace(saved, path)
    assert not falls_back([*BUILD, "--lang", "all"], capsys, monkeypatch)


def _corrupt_manifest(work: Path) -> None:
    manifest = work / OUTPUT / "tiny" / uptodate.MANIFEST
    _replace(manifest, manifest.read_bytes()[:-20])


def _drop_a_step(work: Path) -> None:
    manifest = work / OUTPUT / "tiny" / uptodate.MANIFEST
    entries = json.loads(manifest.read_text())
    del entries["rulebook"]
    _replace(manifest, json.dumps(entries).encode())


def _new_deck(work: Path) -> None:
    (work / DECKS / "second.toml").write_text(TINY.replace('id = "tiny"', 'id = "second"'), encoding="utf-8")


def _same_id(work: Path) -> None:
    (work / DECKS / "again.toml").write_text(TINY, encoding="utf-8")


def _unreadable_deck(work: Path) -> None:
    (work / DECKS / "broken.toml").write_text("[deck\n", encoding="utf-8")


def _new_translation(work: Path) -> None:
    (work / DECKS / "translations" / "tiny.fr.toml").write_text(OVERLAY.replace('"de"', '"fr"'), encoding="utf-8")


def _interrupted_publish(work: Path) -> None:
    (work / OUTPUT / ".tiny.old-1234").mkdir()


def _code_changed(work: Path, monkeypatch) -> None:
    templates = work / "templates"
    shutil.copytree(uptodate.TEMPLATES, templates)
    first = sorted(path for path in templates.rglob("*.j2"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    monkeypatch.setattr(uptodate, "TEMPLATES", templates)


def _deck_id_changed(work: Path) -> None:
    deck = work / DECKS / "tiny.toml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('id = "tiny"', 'id = "tinz"'), encoding="utf-8")


CHANGES = {
    "the output folder missing": (lambda work: shutil.rmtree(work / OUTPUT), BUILD),
    "a deck's output folder missing": (lambda work: shutil.rmtree(work / OUTPUT / "tiny"), BUILD),
    "a translation's folder missing": (lambda work: shutil.rmtree(work / OUTPUT / "tiny" / "de"),
                                       [*BUILD, "--lang", "de"]),
    "another output folder": (lambda work: None, ["build", "--decks-dir", DECKS, "--output", "elsewhere"]),
    "a manifest cut short": (_corrupt_manifest, BUILD),
    "a step missing from the manifest": (_drop_a_step, BUILD),
    "a new deck": (_new_deck, BUILD),
    "two decks with one id": (_same_id, BUILD),
    "a deck that cannot be read": (_unreadable_deck, BUILD),
    "a deck's id changed": (_deck_id_changed, BUILD),
    "a new translation": (_new_translation, [*BUILD, "--lang", "all"]),
    "a language no deck has": (lambda work: None, [*BUILD, "--lang", "fr"]),
    "a publish interrupted": (_interrupted_publish, BUILD),
    "another base URL": (lambda work: None, [*BUILD, "--base-url", "https://example.org/cards"]),
    "a bad base URL": (lambda work: None, [*BUILD, "--base-url", "ftp://example.org"]),
    "no decks folder": (lambda work: None, ["build", "--decks-dir", "nowhere", "--output", OUTPUT]),
    "a decks folder that is a file": (lambda work: None, ["build", "--decks-dir", "decks/tiny.toml", "--output", OUTPUT]),
    "an empty decks folder": (lambda work: (work / "empty").mkdir(), ["build", "--decks-dir", "empty", "--output", OUTPUT]),
}


@pytest.mark.parametrize("change", CHANGES, ids=str)
def test_what_may_need_building_goes_to_typer_which_builds_as_ever(change, work, capsys, monkeypatch):
    """The quick entry point hands the build over, and what the user then sees (what typer's
    build prints, exits and writes) is the same as through the typer app from the start."""
    mutate, argv = CHANGES[change]
    mutate(work)
    assert falls_back(argv, capsys, monkeypatch)
    quick = fastcli.main(list(argv)), *capsys.readouterr()
    after_quick = outputs(work)
    restore(work)
    mutate(work)
    typer = typer_path(argv, capsys)
    assert quick == typer
    assert after_quick == outputs(work)
    if change == "a publish interrupted":  # the build puts the folder right, and has nothing to build
        assert not (work / OUTPUT / ".tiny.old-1234").exists()
    else:
        assert quick[0] != 0 or "built summary" in quick[1] or "built rulebook" in quick[1], quick


def outputs(work: Path) -> dict[str, str]:
    """Each file's hash below the work folder but for the manifests (they hold times and inodes)."""
    return {name: facts[-1] for name, facts in snapshot(work).items() if not name.endswith(uptodate.MANIFEST)}


def test_new_code_rebuilds_every_deck(work, capsys, monkeypatch):
    _code_changed(work, monkeypatch)
    assert falls_back(BUILD, capsys, monkeypatch)
    code, out, _ = fastcli.main(list(BUILD)), *capsys.readouterr()
    assert code == 0 and out.count("built summary, validate, print, images, exports, rulebook ->") == 2, out


def test_a_build_holding_the_output_folder_is_reported_by_typer(work, capsys, monkeypatch):
    import fcntl

    handle = os.open(work / OUTPUT, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert falls_back(BUILD, capsys, monkeypatch)
        code, _, err = fastcli.main(list(BUILD)), *capsys.readouterr()
    finally:
        os.close(handle)
    assert code != 0 and "another deckgen build is writing to output/" in err


def test_remembered_deck_ids_are_checked_and_kept_by_hash(work, capsys, monkeypatch, tmp_path):
    """The ids are remembered by each deck file's hash (an edited deck is parsed again), in a
    sealed file: a damaged one is ignored, never trusted."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    expected = typer_path(BUILD, capsys)
    remembered = tmp_path / "deckgen" / "deck-ids"
    assert remembered.is_file() and quick_only(BUILD, capsys, monkeypatch) == expected
    raw = bytearray(remembered.read_bytes())
    raw[-3] ^= 0xFF
    remembered.write_bytes(bytes(raw))
    assert quick_only(BUILD, capsys, monkeypatch) == expected
    _deck_id_changed(work)
    assert falls_back(BUILD, capsys, monkeypatch)


def test_code_rewritten_with_its_size_and_time_put_back_is_new_code(work, capsys, monkeypatch, tmp_path):
    """The code fingerprint is kept under each code file's stamp, its change time included, so
    a template edited in place with its old size and modification time is still new code."""
    monkeypatch.setattr(uptodate, "SETTLE_NS", 0)  # kept at once, though the copied files are fresh
    _code_changed(work, monkeypatch)
    assert falls_back(BUILD, capsys, monkeypatch)
    assert typer_path(BUILD, capsys)[0] == 0  # built under the copied templates
    kept = fingerprint_kept()
    assert not falls_back(BUILD, capsys, monkeypatch) and fingerprint_kept() == kept
    with monkeypatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path / "none"))
        assert uptodate.code_fingerprint() == kept[1], "the kept fingerprint is the files' own"
    time.sleep(0.05)  # past the grain of the file system's clock
    _flip_a_byte(sorted((work / "templates").rglob("*.j2"))[0])
    assert falls_back(BUILD, capsys, monkeypatch)
    assert fingerprint_kept()[1] != kept[1]


def fingerprint_kept() -> tuple:
    """(stamp, fingerprint) kept in the cache folder."""
    body = deckcache.read_sealed(deckcache.cache_folder() / "code-fingerprint", uptodate._CODE_MAGIC)
    assert body is not None
    return marshal.loads(body)


def test_a_damaged_kept_fingerprint_is_ignored(work, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(uptodate, "SETTLE_NS", 0)
    fingerprint = uptodate.code_fingerprint()
    kept = tmp_path / "deckgen" / "code-fingerprint"
    raw = bytearray(kept.read_bytes())
    raw[-5] ^= 0xFF
    kept.write_bytes(bytes(raw))
    assert uptodate.code_fingerprint() == fingerprint
    assert kept.read_bytes() != bytes(raw), "written again"
    assert not falls_back(BUILD, capsys, monkeypatch)


def test_a_build_with_a_base_url_is_a_no_op_under_the_same_url_only(work, capsys, monkeypatch):
    """--base-url is part of each step's key, as the build checks it (a trailing '/' dropped)."""
    url = [*BUILD, "--base-url", "https://example.org/cards"]
    assert typer_path(url, capsys)[0] == 0
    again = [*BUILD, "--base-url", "https://example.org/cards/", "--json"]
    assert quick_only(again, capsys, monkeypatch) == typer_path(again, capsys)
    assert falls_back(BUILD, capsys, monkeypatch)
    assert falls_back([*BUILD, "--base-url", "https://example.org/other"], capsys, monkeypatch)
