"""Tidepool: a small deck written for the designer-workflow tests, using what a real deck uses:
three kinds with their own layouts and backs, a PNG and an SVG icon inline in text, Pillow art
drawn without bleed, cards from a CSV sheet, and (on request) a German overlay."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

DECK = '''
[deck]
id = "tidepool"
name = "Tidepool"
version = "0.1"
designer = "tests"
description = "Collect shells and fish before the tide turns."
players = { min = 2, max = 4 }
play_time = "10 minutes"
card_size = "poker"
layouts = ["layouts/tide.toml"]

[icons]
shell = { file = "icons/shell.png", tint = true }
wave = "icons/wave.svg"

[[kinds]]
id = "shell"
name = "Shell"
color = "#b5651d"
layout = "pool"
back_layout = "shell-back"

[[kinds]]
id = "fish"
name = "Fish"
color = "#1d6fb5"
layout = "pool"
back_layout = "fish-back"

[[kinds]]
id = "tide"
name = "Tide"
color = "#2e7d4f"
layout = "text"
back_layout = "tide-back"

[[cards]]
name = "Conch"
code = "CO"
kind = "shell"
count = 2
art = "art/conch.png"
text = "Worth {icon:shell}{icon:shell}."
props = { cost = 2 }

[[cards]]
name = "High Tide"
code = "HT"
kind = "tide"
count = 1
text = "Every player discards a {icon:wave} card."

[[card_sources]]
file = "fish.csv"
defaults = { kind = "fish" }

[[sections]]
id = "play"
title = "Play"
role = "play"
text = "Take turns collecting cards."
'''

FISH = '''name,code,count,text,art,props.cost
Sardine,SA,3,Worth {icon:shell}.,art/sardine.png,1
Grouper,GR,1,Worth {icon:shell}{icon:shell}{icon:shell}.,art/sardine.png,3
'''

LAYOUTS = '''
[layouts.pool]
reference_size = [63, 88]

[[layouts.pool.elements]]
name = "art"
type = "image"
src = "{art}"
frame = "bleed"
fit = "cover"
bleed = "mirror"

[[layouts.pool.elements]]
name = "name"
type = "text"
field = "name"
x = "5mm"
y = "5mm"
width = "100% - 10mm"
height = "10mm"
weight = "bold"
size = [14, 8]
color = "{kind.color}"

[[layouts.pool.elements]]
name = "text"
type = "text"
field = "text"
x = "5mm"
y = "100% - 5mm"
width = "100% - 10mm"
height = "14mm"
anchor = "bottom-left"
size = [11, 7]
align = "center"
'''

BACK = '''
[layouts.{kind}-back]
side = "back"
reference_size = [63, 88]

[[layouts.{kind}-back.elements]]
name = "ground"
type = "shape"
frame = "bleed"
fill = "{color}"
'''

BACK_COLOURS = {"shell": "#b5651d", "fish": "#1d6fb5", "tide": "#2e7d4f"}

WAVE_SVG = '''<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
<path d="M2 20 Q9 10 16 20 T30 20" stroke="#1d6fb5" stroke-width="4" fill="none"/></svg>
'''


def art(path: Path, colour: tuple[int, int, int]) -> None:
    """A picture without bleed: a coloured field with a white disc, drawn by Pillow."""
    image = Image.new("RGB", (760, 1060), colour)
    ImageDraw.Draw(image).ellipse((230, 380, 530, 680), fill=(255, 255, 255))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def make(folder: Path) -> Path:
    """Write Tidepool into `folder`; returns the deck file."""
    (folder / "icons").mkdir(parents=True, exist_ok=True)
    (folder / "layouts").mkdir(exist_ok=True)
    shell = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    ImageDraw.Draw(shell).pieslice((4, 4, 60, 60), 180, 360, fill=(0, 0, 0, 255))
    shell.save(folder / "icons" / "shell.png")
    (folder / "icons" / "wave.svg").write_text(WAVE_SVG, encoding="utf-8")
    art(folder / "art" / "conch.png", (230, 180, 120))
    art(folder / "art" / "sardine.png", (120, 170, 230))
    backs = "".join(BACK.replace("{kind}", kind).replace("{color}", colour) for kind, colour in BACK_COLOURS.items())
    (folder / "layouts" / "tide.toml").write_text(LAYOUTS + backs, encoding="utf-8")
    (folder / "fish.csv").write_text(FISH, encoding="utf-8")
    deck = folder / "tidepool.toml"
    deck.write_text(DECK, encoding="utf-8")
    return deck


GERMAN = '''
[translation]
lang = "de"

[deck]
name = "Gezeitenbecken"
'''


def overlay(deck: Path, text: str = GERMAN, lang: str = "de") -> Path:
    """Write a translation overlay of `deck`; returns its file."""
    folder = deck.parent / "translations"
    folder.mkdir(exist_ok=True)
    path = folder / f"{deck.stem}.{lang}.toml"
    path.write_text(text, encoding="utf-8")
    return path
