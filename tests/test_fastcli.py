"""The quick entry point (`generator.fastcli`) against the typer app (`generator.cli`): over the
same command lines both print the same bytes, exit the same and write the same files; it runs
exactly the command lines it understands and hands every other one to typer; and the quick
commands load none of the heavy libraries."""

from __future__ import annotations

import errno
import subprocess
import sys

import pytest
import typer

from generator import cli, fastcli
from generator.commands import quick
from generator.console import echo
from tests.badinput import TINY
from tests.conftest import ROOT

TRICK = ["trick", "--trump", "hearts", "North", "JE", "East", "5C", "South", "KC", "West", "2H"]

# Command lines the quick entry point runs itself. {tmp} is this test's scratch folder.
QUICK = [
    ["--version"], ["--debug", "--version"], ["--version", "--debug"],
    ["list"], ["list", "--json"], ["list", "--json", "--json"], ["--debug", "list"], ["list", "--debug"],
    ["list", "--decks-dir", "decks"], ["list", "--decks-dir=decks"], ["list", "--decks-dir="],
    ["list", "--decks-dir", "{tmp}/nowhere"], ["list", "--decks-dir", "README.md"],
    ["list", "--decks-dir", "examples"], ["list", "--decks-dir", "{tmp}/broken"], ["list", "--decks-dir", "{tmp}/invalid"],
    ["list", "--decks-dir", "{tmp}/odd", "--json"], ["list", "--decks-dir", "{tmp}/odd"],
    ["show", "wizard"], ["show", "wizard", "--json"], ["show", "--json", "wizard-hearts"], ["show", "decks/wizard.toml"],
    ["show", "{tmp}/odd/odd.toml"], ["show", "tiny", "--decks-dir", "{tmp}/odd"], ["show", "quidditch-v2"],
    ["show", "nosuch"], ["show", ""], ["show", "-"], ["show", "wizard", "--decks-dir", "{tmp}/nowhere"],
    ["show", "{tmp}/broken/broken.toml"], ["show", "{tmp}/invalid/dup.toml"], ["show", "{tmp}"],
    ["rule", "wizard", *TRICK], ["rule", "wizard", "--json", *TRICK], ["rule", "--json", "wizard", "trick", "7H", "JE"],
    ["rule", "wizard", "trick", "--lead", "North", "7H", "JE"], ["rule", "wizard", "trick", "--lead=North", "7H", "JE"],
    ["rule", "wizard", "bid", "1", "round", "3", "after", "1", "0", "1", "scores", "20", "40", "10", "60"],
    ["rule", "wizard", "bid", "1", "round", "3", "after", "1", "0", "1", "scores", "-10", "40", "10", "60"],
    ["rule", "wizard", "--variant", "never-even", "bid", "1", "round", "3", "after", "1", "0", "1"],
    ["rule", "wizard", "--variant", "never-even", "--variant", "final-round", "bid", "2", "round", "2"],
    ["rule", "wizard", "--variant=nosuch", "trick", "7H"], ["rule", "wizard", "play", "7H", "hand", "7H", "9S", "JE",
                                                             "trick", "JE", "2S"],
    ["rule", "wizard", "gibberish"], ["rule", "wizard", "-x", "7H"], ["rule", "--trump", "hearts", "wizard", "trick"],
    ["rule", "wizard", "--lang", "de", "trick", "7H", "JE"], ["rule", "wizard", "--lang", "all", "trick", "7H"],
    ["rule", "wizard", "--lang", "xx", "trick", "7H"], ["rule", "wizard", "trick", "--debug", "7H", "JE"],
    ["rule", "muggle-quidditch", "goal", "7H", "5S", "keeper", "KD", "house", "hearts", "rival", "diamonds"],
    ["rule", "wizard-hearts", "trick", "shun", "hearts", "7H", "JE"], ["rule", "nosuch", "trick"],
    ["rule", "wizard", "--decks-dir", "{tmp}/nowhere", "trick", "7H"],
    ["referee", "wizard", "examples/wizard-4p.toml"], ["referee", "wizard", "examples/wizard-4p.toml", "--json"],
    ["referee", "wizard", "examples/wizard-illegal.toml"], ["referee", "--json", "wizard", "examples/wizard-illegal.toml"],
    ["referee", "wizard-hearts", "examples/wizard-hearts-5p.toml"], ["referee", "muggle-quidditch",
                                                                     "examples/muggle-quidditch-illegal.toml"],
    ["referee", "quidditch-v2", "examples/quidditch-v2-short.toml"], ["referee", "wizard-hearts", "examples/wizard-4p.toml"],
    ["referee", "wizard", "{tmp}/missing.toml"], ["referee", "wizard", "{tmp}/missing.toml", "--json"],
    ["referee", "wizard", "{tmp}"], ["referee", "wizard", "decks/wizard.toml"],
    ["referee", "wizard", "examples/wizard-4p.toml", "-o", "{tmp}/page.html"],
    ["referee", "wizard", "examples/wizard-4p.toml", "--html", "-o", "{tmp}/page.html"],
    ["referee", "wizard", "examples/wizard-4p.toml", "--html", "--output={tmp}/page.html", "--json"],
    ["referee", "wizard", "examples/wizard-4p.toml", "--lang", "de"],
]

# Command lines it leaves to typer: help, other commands, anything it does not understand.
TYPER = [
    [], ["--help"], ["--debug"], ["-h"], ["--version", "list"], ["schema"], ["lst"], ["--debug", "--debug", "list"],
    ["list", "--help"], ["list", "extra"], ["list", "--jsn"], ["list", "--json=1"], ["list", "--decks-dir"],
    ["list", "--decks-dir", "--json"], ["list", "-j"], ["list", "--", "x"],
    ["show"], ["show", "wizard", "extra"], ["show", "--help"], ["show", "wizard", "--lang", "de"],
    ["rule", "wizard"], ["rule", "wizard", "trick", "--help"], ["rule", "wizard", "--variant"],
    ["rule", "wizard", "--json=yes", "trick", "7H"], ["rule", "wizard", "--", "trick", "7H"],
    ["referee", "wizard"], ["referee", "wizard", "examples/wizard-4p.toml", "extra"],
    ["referee", "wizard", "examples/wizard-4p.toml", "-o{tmp}/page.html", "--html"],
    ["referee", "wizard", "examples/wizard-4p.toml", "--html=1"], ["referee", "wizard", "examples/wizard-4p.toml", "-o"],
]


@pytest.fixture
def scratch(tmp_path):
    """Decks a user could give: broken TOML, an invalid deck, one with terminal codes in it."""
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "broken.toml").write_text("[deck\n", encoding="utf-8")
    (tmp_path / "invalid").mkdir()
    (tmp_path / "invalid" / "dup.toml").write_text(TINY.replace('code = "JK"', 'code = "AH"'), encoding="utf-8")
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "odd.toml").write_text(
        TINY.replace('name = "Tiny"', 'name = "Tiny \\u001b[31mred\\u001b[0m ünïcødé ♠"'), encoding="utf-8")
    (tmp_path / "odd" / "tiny.toml").write_text(TINY, encoding="utf-8")
    return tmp_path


def filled(argv: list[str], folder) -> list[str]:
    return [word.replace("{tmp}", str(folder)) for word in argv]


def outcome(main, argv, capsys, page):
    capsys.readouterr()
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # typer's own main exits on a closed pipe
        code = ("SystemExit", exit_.code)
    out, err = capsys.readouterr()
    written = page.read_bytes() if page.exists() else None
    if page.exists():
        page.unlink()
    return code, out, err, written


def three_runs(argv, capsys, monkeypatch, folder):
    """The typer app (filling a cache), then the quick entry point on that cache and on none."""
    page = folder / "page.html"
    results = {}
    for name, main, cache in (("typer", cli.main, "shared"), ("quick, warm cache", fastcli.main, "shared"),
                              ("quick, cold cache", fastcli.main, "cold")):
        monkeypatch.setenv("XDG_CACHE_HOME", str(folder / f"cache-{cache}"))
        results[name] = outcome(main, argv, capsys, page)
    return results


@pytest.mark.parametrize("argv", QUICK, ids=" ".join)
def test_the_quick_path_prints_and_exits_as_typer_does(argv, scratch, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("DECKGEN_DEBUG", raising=False)
    argv = filled(argv, scratch)
    assert fastcli.plan(argv) is not None, "this command line should not need typer"
    results = three_runs(argv, capsys, monkeypatch, scratch)
    typer_result = results.pop("typer")
    assert typer_result[1] or typer_result[2], "the command printed nothing at all"
    for name, result in results.items():
        assert result == typer_result, name


@pytest.mark.parametrize("argv", TYPER, ids=lambda argv: " ".join(argv) or "(nothing)")
def test_what_the_quick_path_does_not_understand_goes_to_typer(argv, scratch, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = filled(argv, scratch)
    assert fastcli.plan(argv) is None
    results = three_runs(argv, capsys, monkeypatch, scratch)
    assert results["quick, warm cache"] == results["typer"] == results["quick, cold cache"]


def test_the_quick_table_declares_what_the_typer_commands_declare():
    """Options, their kinds and defaults, arguments and parameter names: an option added to a
    typer command and not here would otherwise be read as a word of `rule`'s question."""
    import inspect

    group = typer.main.get_command(cli.app)
    for name, command in fastcli.COMMANDS.items():
        declared = group.commands[name]
        options, defaults, arguments, rest = {}, {}, [], ""
        for param in declared.params:
            kind = fastcli.PATH if "Path" in type(param.type).__name__ else fastcli.VALUE
            if param.param_type_name == "argument":
                if param.nargs == -1:
                    rest = param.name
                else:
                    arguments.append((param.name, kind))
                continue
            if type(param.type).__name__ == "IntRange":  # --jobs: click's IntRange(min=0), nothing else
                assert (param.type.min, param.type.max, param.type.clamp) == (0, None, False), name
                kind = fastcli.COUNT
            kind = fastcli.FLAG if param.is_flag else fastcli.MULTI if param.multiple else kind
            options.update({spelling: (param.name, kind) for spelling in param.opts + param.secondary_opts})
            defaults[param.name] = param.default
        assert (command.options, command.defaults, command.arguments, command.rest) == (options, defaults,
                                                                                         tuple(arguments), rest), name
        assert command.unknown_are_arguments == bool(declared.context_settings.get("ignore_unknown_options")), name
        parameters = set(inspect.signature(getattr(quick, command.run)).parameters)
        assert parameters == {param.name for param in declared.params}, name


def test_shell_completion_goes_to_typer(monkeypatch):
    monkeypatch.setenv("_DECKGEN_COMPLETE", "bash_complete")
    assert fastcli.plan(["list"]) is None


def _failing(error: BaseException):
    def failing(*_args, **_kwargs):
        raise error
    return failing


@pytest.mark.parametrize("error", [RuntimeError("forced\nfailure"), KeyboardInterrupt(), EOFError(),
                                   OSError(errno.EPIPE, "Broken pipe"), OSError(errno.ENOSPC, "No space left")],
                         ids=["bug", "interrupt", "end of input", "closed pipe", "full disk"])
@pytest.mark.parametrize("debug", [False, True], ids=["plain", "debug"])
def test_failures_end_the_same_way(error, debug, scratch, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("DECKGEN_DEBUG", raising=False)
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # a closed pipe swaps the streams: put them back after
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    monkeypatch.setattr(quick, "show", _failing(error))
    argv = ["show", "wizard"] + (["--debug"] if debug else [])
    results = three_runs(argv, capsys, monkeypatch, scratch)
    typer_code, typer_out, typer_err, _ = results.pop("typer")
    for name, (code, out, err, _) in results.items():
        assert (code, out) == (typer_code, typer_out), name
        if debug:  # the traceback's frames differ (typer's own are in it); its last line does not
            assert err.splitlines()[-1:] == typer_err.splitlines()[-1:], name
        else:
            assert err == typer_err, name


@pytest.mark.parametrize("text", ["plain", "", "ünïcødé ♠ ✓", "\x1b[31mred\x1b[0m and \x1b[1;4mbold\x1b[m", "tab\there"])
@pytest.mark.parametrize("err", [False, True], ids=["stdout", "stderr"])
def test_echo_writes_what_typer_echo_writes(text, err, capsys):
    typer.echo(text, err=err)
    expected = capsys.readouterr()
    echo(text, err=err)
    assert capsys.readouterr() == expected


HEAVY = {"typer", "click", "rich", "reportlab", "PIL", "jinja2", "markupsafe", "fontTools", "pyphen", "openpyxl",
         "pikepdf", "pypdfium2", "watchfiles", "distributed"}
PROBE = "import sys; from generator.fastcli import main; main(sys.argv[1:]); print('MODULES', *sorted(sys.modules))"


@pytest.mark.parametrize("argv", [["--version"], ["list"], ["show", "wizard"], ["rule", "wizard", *TRICK],
                                  ["referee", "wizard", "examples/wizard-4p.toml"]], ids=lambda argv: argv[0])
def test_quick_commands_load_no_heavy_library(argv, tmp_path):
    """Cold (an empty deck cache) and warm; warm, no deck is loaded afresh, and list and show do
    not even need the model."""
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    for run in ("cold", "warm"):
        done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        modules = set(done.stdout.splitlines()[-1].split()[1:])
        assert not {name.split(".")[0] for name in modules} & HEAVY, run
        if run == "warm" and argv[0] != "--version":
            assert "generator.loader" not in modules
            if argv[0] in ("list", "show"):
                assert "generator.model" not in modules and "dataclasses" not in modules
            else:  # rule and referee draw no card: the deck comes without its layout book
                assert "generator.layouts" not in modules


@pytest.mark.parametrize("argv", [["show", "wizard"], ["rule", "wizard", "play", "7H", "hand", "7H", "9S", "JE",
                                                       "trick", "JE", "2S"], ["show", "nosuch"]],
                         ids=["fine", "a rule says no", "bad input"])
def test_the_command_exits_at_once_with_everything_written(argv, tmp_path, capsys, monkeypatch):
    """`deckgen` ends a quick command with os._exit: what it printed and its exit code are those
    of the same command run in-process."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("DECKGEN_DEBUG", raising=False)
    code = fastcli.main(list(argv))
    expected = capsys.readouterr()
    done = subprocess.run([sys.executable, "-m", "generator", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (code, expected.out, expected.err)
