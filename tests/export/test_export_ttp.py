"""The Tabletop Playground export, read back as Tabletop Playground reads a card template: every
physical card's face cut from its template's grid, its back from the template's back texture."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from generator.deck.loader import load_deck
from generator.export.faces import faces_for
from generator.faces.raster import BackOf
from tests.conftest import DECKS
from tests.export_support import export, write_deck

DESIGNER = Path(__file__).resolve().parents[2] / "examples" / "designer" / "cauldron-club.toml"
# The keys of a card template as Tabletop Playground writes one (TI4-Online/TI4-TTPG
# assets/Templates/card/action/pok/3.json; visnup/arcs-ttpg Templates/cards/*.json).
TEMPLATE_KEYS = {
    "Type", "GUID", "Name", "Metadata", "CollisionType", "Friction", "Restitution", "Density", "SurfaceType",
    "Roughness", "Metallic", "PrimaryColor", "SecondaryColor", "Flippable", "AutoStraighten", "ShouldSnap",
    "ScriptName", "Blueprint", "Models", "Collision", "SnapPointsGlobal", "SnapPoints", "ZoomViewDirection",
    "FrontTexture", "BackTexture", "HiddenTexture", "BackIndex", "HiddenIndex", "NumHorizontal", "NumVertical",
    "Width", "Height", "Thickness", "HiddenInHand", "UsedWithCardHolders", "CanStack", "UsePrimaryColorForSide",
    "FrontTextureOverrideExposed", "AllowFlippedInStack", "MirrorBack", "Model", "Indices", "CardNames",
    "CardMetadata",
}
MANIFEST_KEYS = {"Name", "Version", "GUID", "CopyProtection"}  # arcs-ttpg Manifest.json, less mod.io's ModID


def read_package(out: Path, deck_id: str) -> tuple[Path, dict, list[dict]]:
    package = out / deck_id / "ttp" / deck_id
    manifest = json.loads((package / "Manifest.json").read_text("utf-8"))
    templates = [json.loads(path.read_text("utf-8"))
                 for path in sorted((package / "Templates" / deck_id).glob("*.json"))]
    return package, manifest, templates


def unpack(package: Path, template: dict) -> list[tuple[str, dict, Image.Image, Image.Image]]:
    """(name, metadata, face, back) of every card in the stack, as Tabletop Playground builds it."""
    textures = package / "Textures"
    sheet = Image.open(textures / template["FrontTexture"]).convert("RGB")
    back = Image.open(textures / template["BackTexture"]).convert("RGB")
    columns, rows = template["NumHorizontal"], template["NumVertical"]
    width, height = sheet.width // columns, sheet.height // rows
    assert (width * columns, height * rows) == sheet.size and back.size == (width, height)
    cards = []
    for position, cell in enumerate(template["Indices"]):
        assert 0 <= cell < columns * rows
        row, column = divmod(cell, columns)
        face = sheet.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))
        cards.append((template["CardNames"][str(position)], json.loads(template["CardMetadata"][str(position)]),
                      face, back))
    return cards


def difference(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size
    return max(ImageStat.Stat(ImageChops.difference(a, b)).mean)


def same_image(a: Image.Image, b: Image.Image) -> bool:
    return difference(a, b) < 8  # up to JPEG noise


def closest(image: Image.Image, candidates: dict[str, Image.Image]) -> str:
    """The key of the candidate `image` shows (faces of one deck differ only in their text, so
    the nearest one, not merely a near one)."""
    return min(candidates, key=lambda key: difference(image, candidates[key]))


def test_every_card_has_its_face_and_back_in_the_shape_of_a_real_template(tmp_path):
    assert export("ttp", DECKS / "quidditch-v2.toml", "-o", tmp_path) == 0
    deck = load_deck(DECKS / "quidditch-v2.toml")
    package, manifest, templates = read_package(tmp_path, deck.id)
    assert set(manifest) == MANIFEST_KEYS and manifest["Name"] == deck.name and len(manifest["GUID"]) == 32
    [template] = templates
    assert TEMPLATE_KEYS <= set(template) and template["Type"] == "Card"
    assert template["BackIndex"] == -2 and template["HiddenIndex"] == -3  # as both real templates
    assert (template["Width"], template["Height"]) == (deck.card_size.width_mm / 10, deck.card_size.height_mm / 10)
    cards = unpack(package, template)
    assert [name for name, *_ in cards] == [card.name for card in deck.copies()]
    faces = faces_for(deck)
    expected = dict(zip((card.code for card in deck.cards), faces.images(deck.cards)))
    [deck_back] = faces.images([None])
    for (name, metadata, face, back), card in zip(cards, deck.copies()):
        assert metadata["code"] == card.code and metadata["kind"] == card.kind
        assert closest(face, expected) == card.code and same_image(face, expected[card.code]), name
        assert same_image(back, deck_back), name


def test_kinds_keep_their_own_backs(tmp_path):
    assert export("ttp", DESIGNER, "-o", tmp_path) == 0
    deck = load_deck(DESIGNER)
    package, _, templates = read_package(tmp_path, deck.id)
    assert len(templates) == 2  # one stack per back
    own = {card.code: image for card, image in zip(deck.cards, faces_for(deck).images([BackOf(c) for c in deck.cards]))}
    seen = Counter()
    for template in templates:
        kinds = {metadata["kind"] for _, metadata, _, _ in unpack(package, template)}
        assert len(kinds) == 1 and template["Name"].startswith(f"{deck.name}: ")
        for name, metadata, _, back in unpack(package, template):
            assert same_image(back, own[metadata["code"]]), name
            seen[name] += 1
    assert seen == Counter(card.name for card in deck.copies())


def test_awkward_names_stay_whole(tmp_path):
    name = 'Tab\tQuote" <b>%[x];, ünï ✓\nline'
    write_deck(tmp_path, "hostile", [{"name": name, "code": "H1", "kind": "thing", "count": 2}])
    assert export("ttp", tmp_path / "hostile.toml", "-o", tmp_path / "out") == 0
    package, _, [template] = read_package(tmp_path / "out", "hostile")
    assert [card_name for card_name, *_ in unpack(package, template)] == [name, name]
    assert template["Indices"] == [0, 0]  # two copies, one face


def test_the_same_deck_gives_the_same_bytes(tmp_path):
    for run in ("a", "b"):
        assert export("ttp", DECKS / "wizard.toml", "-o", tmp_path / run) == 0
    files = [sorted((p.relative_to(tmp_path / run), p.read_bytes()) for p in (tmp_path / run).rglob("*") if p.is_file())
             for run in ("a", "b")]
    assert files[0] == files[1]
