"""The compact layout form (`box`, presets, per-layout defaults, one element a line) draws exactly
what the long form draws, in fewer lines: Tidepool's layouts and the designer example's."""

from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image, ImageChops

from tests.designer.tidepool import make

ROOT = Path(__file__).resolve().parents[2]

# Tidepool's layouts (tidepool.LAYOUTS and its three backs), said the compact way.
TIDE_COMPACT = '''
[layouts.pool]
reference_size = [63, 88]
defaults = { text = { width = "100% - 10mm" } }
elements = [
  { name = "art", type = "image", frame = "bleed", bleed = "mirror" },
  { name = "name", type = "text", field = "name", box = ["5mm", "5mm", "100% - 10mm", "10mm"], weight = "bold", size = [14, 8], color = "{kind.color}" },
  { name = "text", type = "text", field = "text", x = "5mm", y = "100% - 5mm", height = "14mm", anchor = "bottom-left", size = [11, 7], align = "center" },
]

[layouts.shell-back]
side = "back"
reference_size = [63, 88]
elements = [{ name = "ground", type = "shape", frame = "bleed", fill = "#b5651d" }]

[layouts.fish-back]
extends = "shell-back"
elements = [{ name = "ground", fill = "#1d6fb5" }]

[layouts.tide-back]
extends = "shell-back"
elements = [{ name = "ground", fill = "#2e7d4f" }]
'''


def _lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def _images(run_cli, deck: Path) -> dict[str, Image.Image]:
    result = run_cli("images", deck, "--decks-dir", deck.parent, cwd=deck.parent)
    assert result.exit_code == 0, result.stdout + result.stderr
    folder = next(deck.parent.glob("output/*/images"))
    found = {str(p.relative_to(folder)): Image.open(p).convert("RGB") for p in sorted(folder.rglob("*.png"))}
    shutil.rmtree(folder)
    return found


def _same(first: dict, second: dict) -> None:
    assert first.keys() == second.keys()
    for name in first:
        assert ImageChops.difference(first[name], second[name]).getbbox() is None, name


def test_tidepool_in_the_compact_form_draws_the_same_in_half_the_lines(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    layouts = deck.parent / "layouts" / "tide.toml"
    long_form = layouts.read_text()
    before = _images(run_cli, deck)
    shown = run_cli("layout", "show", "pool", "--deck", deck).stdout
    layouts.write_text(TIDE_COMPACT)
    _same(before, _images(run_cli, deck))
    assert run_cli("layout", "show", "pool", "--deck", deck).stdout == shown  # the same resolved geometry
    assert _lines(TIDE_COMPACT) * 2 <= _lines(long_form) + 2, (_lines(TIDE_COMPACT), _lines(long_form))


def test_the_designer_example_in_the_compact_form_draws_the_same(tmp_path, run_cli):
    folder = tmp_path / "designer"
    shutil.copytree(ROOT / "examples" / "designer", folder, ignore=shutil.ignore_patterns("output"))
    before = _images(run_cli, folder / "cauldron-club.toml")
    compact = (ROOT / "examples" / "compact" / "club.toml").read_text()
    long_form = (folder / "layouts" / "club.toml").read_text()
    (folder / "layouts" / "club.toml").write_text(compact)
    _same(before, _images(run_cli, folder / "cauldron-club.toml"))
    assert _lines(compact) * 2 <= _lines(long_form) + 6, (_lines(compact), _lines(long_form))


def test_compact_mistakes_name_the_line_and_field(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    layouts = deck.parent / "layouts" / "tide.toml"
    mistakes = (('box = ["5mm", "5mm", "100% - 10mm", "10mm"]', 'box = ["5mm", "5mm"]', "is not [x, y, width, height]"),
                ('field = "name",', 'field = "name", preset = "title",', "unknown preset 'title'"),
                ('{ width = "100% - 10mm" }', '{ width = "100% - 10mm", fit = "cover" }',
                 "'fit' cannot be a default of text elements"))
    for right, wrong, says in mistakes:
        text = TIDE_COMPACT.replace(right, wrong, 1)
        layouts.write_text(text)
        result = run_cli("validate", deck)
        output = result.stdout + result.stderr
        line = next(n for n, written in enumerate(text.splitlines(), start=1) if wrong in written)
        assert result.exit_code != 0 and f"tide.toml:{line}" in output and says in output, output
