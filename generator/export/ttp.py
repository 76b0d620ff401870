"""Tabletop Playground export: a package folder with a card template per back and its textures.

Written under `<out>/ttp/<deck>/` (a Tabletop Playground package, as shared on mod.io):

    Manifest.json                               the package's name, version and GUID
    Templates/<deck>/<GUID>.json                a card template (a stack of cards) per sheet
    Textures/<deck>/<deck>-sheet-<n>-<hash>.jpg  the faces of that template's cards, a grid
    Textures/<deck>/<deck>-back-<hash>.jpg       the back its cards share (one file per distinct back)

The template's fields are those Tabletop Playground writes for a card stack (compared field by
field with real templates: TI4-Online/TI4-TTPG `assets/Templates/card/action/pok/3.json` and
visnup/arcs-ttpg `Templates/cards/*.json`): `Type` "Card", `FrontTexture` a grid of
`NumHorizontal` x `NumVertical` faces (the very sheets of the TTS export, whose last cell,
the back, no card names), `BackTexture` one image with `BackIndex` -2 (one back for
the whole texture, as both real files do) and `HiddenIndex` -3 (the back is also what other
players see of a hidden card), `Indices` the cell of each physical card (a copy repeats its
cell), `CardNames` and `CardMetadata` by position in `Indices`, `Width`/`Height` in centimetres.

Cards with a back of their own (a kind's back) get templates of their own, so every card
shows its own back: one stack per back, as the TTS export has one deck per back. Texture names
carry a content hash, as the TTS sheets' do, so a changed sheet is a new file. `CardMetadata`
holds the card's code, kind, suit and rank as a JSON string; everything is written with
`json.dumps`, which escapes every string.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..deck.model import Card, Deck
from .common import ExportError, write_export_folder
from .faces import faces_for, jpeg_bytes
from .tts import Sheet, back_request, hashed_name, plan_sheets, sheet_jpeg

BACK_TEXTURE_IS_ONE_IMAGE = -2
HIDDEN_SHOWS_BACK = -3
CARD_THICKNESS_CM = 0.05


def guid(*parts: str) -> str:
    """32 upper-case hex digits, like Tabletop Playground's own GUIDs, the same on every export."""
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32].upper()


def card_metadata(card: Card) -> str:
    return json.dumps({"code": card.code, "kind": card.kind, "suit": card.suit, "rank": card.rank},
                      ensure_ascii=False, sort_keys=True)


def card_template(deck: Deck, name: str, template_guid: str, front: str, back: str, sheet: Sheet) -> dict:
    """One card stack: the physical copies of the sheet's cards (in deck order), faces from its grid.
    The sheet's last cell holds the back for Tabletop Simulator; no card here names it."""
    cell_of = {card.id: cell for cell, card in enumerate(sheet.cards)}
    copies = [card for card in deck.copies() if card.id in cell_of]
    return {
        "Type": "Card", "GUID": template_guid, "Name": name,
        "Metadata": json.dumps({"deck": deck.id, "version": deck.version}, ensure_ascii=False),
        "CollisionType": "Regular", "Friction": 0.7, "Restitution": 0, "Density": 0.5,
        "SurfaceType": "Cardboard", "Roughness": 1, "Metallic": 0,
        "PrimaryColor": {"R": 255, "G": 255, "B": 255}, "SecondaryColor": {"R": 0, "G": 0, "B": 0},
        "Flippable": True, "AutoStraighten": False, "ShouldSnap": True, "ScriptName": "", "Blueprint": "",
        "Models": [], "Collision": [], "SnapPointsGlobal": False, "SnapPoints": [],
        "ZoomViewDirection": {"X": 0, "Y": 0, "Z": 0}, "Tags": [],
        "FrontTexture": front, "BackTexture": back, "HiddenTexture": "",
        "BackIndex": BACK_TEXTURE_IS_ONE_IMAGE, "HiddenIndex": HIDDEN_SHOWS_BACK,
        "NumHorizontal": sheet.columns, "NumVertical": sheet.rows,
        "Width": round(deck.card_size.width_mm / 10, 2), "Height": round(deck.card_size.height_mm / 10, 2),
        "Thickness": CARD_THICKNESS_CM, "HiddenInHand": True, "UsedWithCardHolders": True, "CanStack": True,
        "UsePrimaryColorForSide": False, "FrontTextureOverrideExposed": False, "AllowFlippedInStack": False,
        "MirrorBack": True, "Model": "Rounded",
        "Indices": [cell_of[card.id] for card in copies],
        "CardNames": {str(n): card.name for n, card in enumerate(copies)},
        "CardMetadata": {str(n): card_metadata(card) for n, card in enumerate(copies)},
        "CardTags": {str(n): [card.kind] for n, card in enumerate(copies)},
    }


def package_files(deck: Deck) -> dict[str, bytes]:
    """The package's files by path inside it."""
    faces = faces_for(deck)
    sheets = [sheet for sheet in plan_sheets(deck) if sheet.cards]
    if not sheets:
        raise ExportError(f"{deck.source or deck.id}: the deck has no cards to make a Tabletop Playground stack of")
    files: dict[str, bytes] = {}
    textures = f"Textures/{deck.id}"
    kinds_of_back: dict[int, list[str]] = {}
    for sheet in sheets:
        names = kinds_of_back.setdefault(sheet.back, [])
        names += [kind.name for kind in deck.kinds
                  if any(card.kind == kind.id for card in sheet.cards) and kind.name not in names]
    back_files: dict[int, str] = {}
    made: dict[int, int] = {}
    for sheet in sheets:
        if sheet.back not in back_files:
            request = back_request(sheet)
            data = faces.jpeg(None) if request is None else jpeg_bytes(next(faces.images([request])))
            back_files[sheet.back] = hashed_name(f"{deck.id}-back", data)
            files[f"{textures}/{back_files[sheet.back]}"] = data
        data = sheet_jpeg(deck, sheet)
        front = hashed_name(sheet.stem(deck), data)
        files[f"{textures}/{front}"] = data
        made[sheet.back] = made.get(sheet.back, 0) + 1
        name = deck.name if len(kinds_of_back) == 1 else f"{deck.name}: {', '.join(kinds_of_back[sheet.back])}"
        if sum(1 for other in sheets if other.back == sheet.back) > 1:
            name += f" ({made[sheet.back]})"
        template_guid = guid(deck.id, "template", str(sheet.number))
        template = card_template(deck, name, template_guid, f"{deck.id}/{front}",
                                 f"{deck.id}/{back_files[sheet.back]}", sheet)
        files[f"Templates/{deck.id}/{template_guid}.json"] = _json(template)
    manifest = {"Name": deck.name, "Version": deck.version or "1",
                "GUID": guid(deck.id, "package"), "CopyProtection": False}
    files["Manifest.json"] = _json(manifest)
    return files


def _json(value: dict) -> bytes:
    return (json.dumps(value, indent="\t", ensure_ascii=False) + "\n").encode("utf-8")


def export_ttp(deck: Deck, out_dir: Path) -> list[Path]:
    """Write the package to `out_dir/ttp/<deck>/`, replacing an earlier one; return the paths written."""
    return write_export_folder(out_dir / "ttp" / deck.id, package_files(deck))
