"""What changed between two versions of a deck: cards, rules, rulings, engine, variants.

Items are matched by id across versions; a card whose name changed (its id, which a card
without its own id takes from its code, stays) or whose id changed but whose code did not is
reported as renamed. Each card change says whether its printed face changed (a field
the face shows, or a kind, suit or rank it shows), and `reprint_counts` turns that into the
copies an update pack needs. `deckgen diff` prints this; `diff_html` draws it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..core.errors import OptionError, Problem, UnreadableInput
from ..core.files import read_input
from ..deck import markup
from ..deck.model import Card, Deck

# Card fields the face never shows: a change to them alone needs no reprint.
_UNPRINTED_CARD_FIELDS = {"id", "count", "props", "ruling"}


@dataclass(frozen=True, slots=True)
class FieldChange:
    name: str
    old: Any
    new: Any


@dataclass(frozen=True, slots=True)
class Change:
    """One item added, removed, renamed or changed."""

    section: str  # deck, back, kinds, suits, ranks, cards, sections, rules, rulings, engine, variants, quickref
    action: str  # added, removed, changed, renamed
    id: str
    label: str = ""
    fields: tuple[FieldChange, ...] = ()
    old_id: str = ""  # renamed cards: the id in the old version
    printed: bool = False  # a card whose printed face changed (or a new card)

    def as_dict(self) -> dict:
        data: dict[str, Any] = {"section": self.section, "action": self.action, "id": self.id}
        if self.label:
            data["label"] = self.label
        if self.old_id:
            data["old_id"] = self.old_id
        if self.section == "cards":
            data["printed"] = self.printed
        data["fields"] = {f.name: {"old": _jsonable(f.old), "new": _jsonable(f.new)} for f in self.fields}
        return data


@dataclass
class DeckDiff:
    old: Deck
    new: Deck
    changes: list[Change] = field(default_factory=list)
    back_changed: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    def reprint_counts(self) -> dict[str, int]:
        """Card id (new version) -> copies an update pack holds: every copy of a card whose
        face is new or changed (all cards when the back changed), and the extra copies of a
        card whose count went up."""
        if self.back_changed:
            return {card.id: card.count for card in self.new.cards}
        counts: dict[str, int] = {}
        for change in self.changes:
            if change.section != "cards" or change.action == "removed":
                continue
            card = _by_id(self.new.cards)[change.id]
            if change.printed:
                counts[card.id] = card.count
            else:
                old_count = next((f.old for f in change.fields if f.name == "count"), card.count)
                if card.count > old_count:
                    counts[card.id] = card.count - old_count
        return {card.id: counts[card.id] for card in self.new.cards if card.id in counts}

    def as_dict(self) -> dict:
        reprint = self.reprint_counts()
        return {
            "old": {"deck": self.old.id, "version": self.old.version, "file": str(self.old.source)},
            "new": {"deck": self.new.id, "version": self.new.version, "file": str(self.new.source)},
            "changed": self.changed,
            "back_changed": self.back_changed,
            "changes": [change.as_dict() for change in self.changes],
            "reprint": [{"id": card_id, "code": _by_id(self.new.cards)[card_id].code, "copies": copies}
                        for card_id, copies in reprint.items()],
        }


def diff_decks(old: Deck, new: Deck) -> DeckDiff:
    result = DeckDiff(old, new)
    changes = result.changes
    changes += _meta_changes(old, new)
    result.back_changed = _back_signature(old) != _back_signature(new)
    if old.back != new.back:
        changes.append(Change("back", "changed", "back", "card back", _fields(old.back, new.back)))
    for section, attribute in (("kinds", "kinds"), ("suits", "suits"), ("ranks", "ranks")):
        changes += _by_id_changes(section, getattr(old, attribute), getattr(new, attribute), skip={"order"})
    changes += _card_changes(old, new)
    changes += _by_id_changes("sections", old.sections, new.sections, skip={"rules", "number"})
    changes += _by_id_changes("rules", _rules_with_section(old), _rules_with_section(new), skip={"number"},
                              label=lambda rule: rule.title)
    changes += _by_id_changes("rulings", old.rulings, new.rulings, label=lambda ruling: ruling.question)
    changes += _dict_changes("engine", dict(old.params), dict(new.params))
    changes += _by_id_changes("variants", old.variants, new.variants)
    changes += _by_id_changes("quickref", _keyed_quickref(old), _keyed_quickref(new))
    return result


# --- items by id ---------------------------------------------------------------------------------

def _by_id(items: Iterable) -> dict[str, Any]:
    return {item.id: item for item in items}


def _label(item) -> str:
    return getattr(item, "name", "") or getattr(item, "title", "")


def _fields(old, new, skip: set[str] = frozenset()) -> tuple[FieldChange, ...]:
    return tuple(FieldChange(f.name, getattr(old, f.name), getattr(new, f.name))
                 for f in dataclasses.fields(old)
                 if f.name not in skip and _comparable(getattr(old, f.name)) != _comparable(getattr(new, f.name)))


def _comparable(value: Any) -> Any:
    if isinstance(value, Path):
        return value.name
    if hasattr(value, "items"):
        return dict(value)
    return value


def _by_id_changes(section: str, old_items, new_items, skip: set[str] = frozenset(),
                   label=_label) -> list[Change]:
    old_map, new_map = _by_id(old_items), _by_id(new_items)
    changes = [Change(section, "removed", key, label(item)) for key, item in old_map.items() if key not in new_map]
    for key, item in new_map.items():
        if key not in old_map:
            changes.append(Change(section, "added", key, label(item)))
            continue
        fields = _fields(old_map[key], item, skip)
        if fields:
            changes.append(Change(section, "changed", key, label(item), fields))
    return changes


def _dict_changes(section: str, old: dict, new: dict) -> list[Change]:
    changes = [Change(section, "removed", key, fields=(FieldChange("value", old[key], None),))
               for key in old if key not in new]
    for key, value in new.items():
        if key not in old:
            changes.append(Change(section, "added", key, fields=(FieldChange("value", None, value),)))
        elif old[key] != value:
            changes.append(Change(section, "changed", key, fields=(FieldChange("value", old[key], value),)))
    return changes


@dataclass(frozen=True, slots=True)
class _PlacedRule:
    id: str
    title: str
    text: str
    section: str
    number: str


def _rules_with_section(deck: Deck) -> list[_PlacedRule]:
    return [_PlacedRule(rule.id, rule.title, rule.text, section.id, rule.number)
            for section in deck.sections for rule in section.rules]


@dataclass(frozen=True, slots=True)
class _KeyedQuickRef:
    id: str
    title: str
    text: str


def _keyed_quickref(deck: Deck) -> list[_KeyedQuickRef]:
    return [_KeyedQuickRef(entry.title, entry.title, entry.text) for entry in deck.quickref]


_META_FIELDS = ("id", "name", "version", "designer", "credits", "description", "min_players", "max_players",
                "play_time", "card_size", "engine")


def _meta_changes(old: Deck, new: Deck) -> list[Change]:
    fields = tuple(FieldChange(name, getattr(old, name), getattr(new, name)) for name in _META_FIELDS
                   if getattr(old, name) != getattr(new, name))
    return [Change("deck", "changed", new.id, new.name, fields)] if fields else []


# --- cards ---------------------------------------------------------------------------------------

def _card_changes(old: Deck, new: Deck) -> list[Change]:
    old_map, new_map = _by_id(old.cards), _by_id(new.cards)
    removed = [card for key, card in old_map.items() if key not in new_map]
    added = [card for key, card in new_map.items() if key not in old_map]
    by_code = {card.code.upper(): card for card in removed}
    changes: list[Change] = []
    renamed_from: dict[str, Card] = {}
    for card in added:
        before = by_code.pop(card.code.upper(), None)
        if before is not None:
            renamed_from[card.id] = before
    gone = {card.id for card in renamed_from.values()}
    changes += [Change("cards", "removed", card.id, card.name) for card in removed if card.id not in gone]
    for card in new.cards:
        before = old_map.get(card.id) or renamed_from.get(card.id)
        if before is None:
            changes.append(Change("cards", "added", card.id, card.name, printed=True))
            continue
        fields = _fields(before, card, skip={"id"})
        printed = face_signature(old, before) != face_signature(new, card)
        if card.id in renamed_from or before.name != card.name:
            changes.append(Change("cards", "renamed", card.id, card.name, fields, old_id=before.id, printed=printed))
        elif fields or printed:
            changes.append(Change("cards", "changed", card.id, card.name, fields, printed=printed))
    return changes


def face_signature(deck: Deck, card: Card) -> str:
    """A digest of everything a card's printed face shows: its printed fields, the kind, suit
    and rank it shows, the card size, the names its {card:...} references print, its art."""
    parts: list[Any] = [deck.card_size]
    for item in dataclasses.fields(card):
        if item.name not in _UNPRINTED_CARD_FIELDS and item.name != "art":  # art: by its bytes, below,
            parts.append((item.name, getattr(card, item.name)))  # never by its path (versions live apart)
    parts.append(next((k for k in deck.kinds if k.id == card.kind), None))
    parts.append(next((s for s in deck.suits if s.id == card.suit), None))
    parts.append(next((r for r in deck.ranks if r.id == card.rank), None))
    for kind, target in markup.references(card.text):
        parts.append(markup.ref_label(deck, markup.Ref(kind, target)))
    digest = hashlib.sha256(repr(parts).encode())
    if card.art is not None:
        try:
            # The loader checked the art lies inside the deck's folder; `deck.source` may name a
            # revision (`deck.toml@HEAD`) whose folder is not where the unpacked art lies.
            digest.update(read_input(card.art, "image"))
        except UnreadableInput as error:  # missing or odd art: the deck's checks say so; here it differs
            digest.update(error.problem.message.encode())
    return digest.hexdigest()


def _back_signature(deck: Deck) -> tuple:
    return deck.back, deck.card_size


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Path):
        return value.name
    if hasattr(value, "items"):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if dataclasses.is_dataclass(value):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


# --- text ----------------------------------------------------------------------------------------

_SECTION_TITLES = {"deck": "deck", "back": "back", "kinds": "kinds", "suits": "suits", "ranks": "ranks",
                   "cards": "cards", "sections": "rule sections", "rules": "rules", "rulings": "rulings",
                   "engine": "engine parameters", "variants": "variants", "quickref": "quick reference"}
_MARKS = {"added": "+", "removed": "-", "changed": "~", "renamed": ">"}


def diff_text(result: DeckDiff) -> str:
    old, new = result.old, result.new
    lines = [f"{old.source} (version {old.version}) -> {new.source} (version {new.version})"]
    if not result.changes:
        lines.append("no differences")
        return "\n".join(lines)
    cards = [c for c in result.changes if c.section == "cards"]
    counts = {action: sum(c.action == action for c in cards) for action in ("added", "removed", "renamed", "changed")}
    summary = ", ".join(f"{n} {action}" for action, n in counts.items() if n) or "none changed"
    reprint = result.reprint_counts()
    lines.append(f"cards: {summary}; reprint {sum(reprint.values())} card(s) of {len(reprint)} design(s)"
                 + (" (the back changed: every card)" if result.back_changed else ""))
    for section, title in _SECTION_TITLES.items():
        items = [c for c in result.changes if c.section == section]
        if not items:
            continue
        lines.append("")
        lines.append(f"{title}:")
        for change in items:
            lines.extend(_change_lines(change, new))
    return "\n".join(lines)


def _change_lines(change: Change, new: Deck) -> list[str]:
    mark = _MARKS[change.action]
    label = f" {change.label!r}" if change.label and change.label != change.id else ""
    head = f"  {mark} {change.id}{label}"
    if change.section == "cards" and change.action != "removed":
        card = _by_id(new.cards)[change.id]
        head += f" [{card.code}] x{card.count}"
        if change.action == "renamed":
            old_name = next((f.old for f in change.fields if f.name == "name"), "")
            head += f" (renamed from {change.old_id if change.old_id != change.id else repr(old_name)})"
        if change.printed and change.action != "added":
            head += " (printed face changed)"
    elif change.section == "engine":
        only = change.fields[0]
        value = only.new if change.action != "removed" else only.old
        head += f" = {_show(value)}" if change.action != "changed" else f": {_show(only.old)} -> {_show(only.new)}"
        return [head]
    lines = [head]
    for item in change.fields:
        old, new_value = _show(item.old), _show(item.new)
        if "\n" in old + new_value or len(old) + len(new_value) > 70:
            lines += [f"      {item.name}:", f"        - {old}", f"        + {new_value}"]
        else:
            lines.append(f"      {item.name}: {old} -> {new_value}")
    return lines


def _show(value: Any) -> str:
    value = _jsonable(value)
    if isinstance(value, str):
        return repr(value.strip())
    return repr(value)


# --- decks from files and git revisions -----------------------------------------------------------

def deck_at_revision(path: Path, revision: str, workdir: Path) -> Path:
    """Unpack the deck file's folder as it was at a git revision into workdir; return the
    deck file's path there (so its spreadsheets and art come from that revision too)."""
    folder = path.resolve().parent

    def git(*args: str) -> bytes:
        try:
            done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, check=False)
        except FileNotFoundError:
            raise OptionError("--rev needs git, which is not installed") from None
        if done.returncode:
            message = done.stderr.decode(errors="replace").strip().splitlines()
            reason = message[-1] if message else f"unknown revision {revision!r}"
            raise UnreadableInput(Problem(f"git {args[0]}: {reason}",
                                          file=path, hint="give a revision git knows: a commit, tag or HEAD~N"))
        return done.stdout

    prefix = git("rev-parse", "--show-prefix").decode().strip()
    git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    if subprocess.run(["git", "-C", str(folder), "cat-file", "-e", f"{revision}:{prefix}{path.name}"],
                      capture_output=True).returncode:
        raise UnreadableInput(Problem(f"{prefix}{path.name} is not in git revision {revision!r}", file=path,
                                      hint="the file may have been added later or renamed"))
    archive = git("archive", "--format=tar", revision, "--", ".")  # the deck's folder, paths within it
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        try:
            tar.extractall(workdir, filter="data")
        except tarfile.FilterError as error:  # a link to an absolute path or out of the folder, say
            member = error.tarinfo
            raise UnreadableInput(Problem(
                f"git revision {revision!r}: {prefix}{member.name} {_refused_member(member, error)}", file=path,
                hint="deckgen unpacks a revision's files and its links only inside the deck's folder")) from None
    return workdir / path.name


def _refused_member(member: tarfile.TarInfo, error: tarfile.FilterError) -> str:
    if member.issym() or member.islnk():
        where = "an absolute path" if isinstance(error, tarfile.AbsoluteLinkError) else "outside the deck's folder"
        return f"is a link to {where} ({member.linkname})"
    return f"cannot be unpacked here ({error})"


def revision_workdir() -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory(prefix="deckgen-rev-")
