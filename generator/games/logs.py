"""Game logs: TOML files a person writes at the table or a program saves, read with
errors that name the file, the line and the field, and written back out.

A log has a generic header, read here, and engine tables (`Game.log_sections`, e.g.
`[[rounds]]`), read by the engine's `log_steps` through the helpers below:

    deck = "wizard"                       # optional: the deck this log is for
    players = ["North", "East", "South"]  # seating order, clockwise
    seed = 7                              # optional: draws any chance the log leaves out
    variant = "never-even"                # optional: deck variant id(s)
    [params]                              # optional: engine parameters over the variant
    event = "Friday game"                 # optional free text: event, date, notes
    [[undo]]                              # optional: moves taken back at the table (not replayed)
    after = 57                            #   actions kept before them
    player = "North"                      #   whose move was taken back
    moves = ["North: 7H"]                 #   the moves taken back, as the log writes actions

docs/game-logs.md describes each engine's tables.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import Problem, UnreadableInput
from ..core.files import read_input
from ..deck.files import parse_toml
from ..deck.model import Card, Deck

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Mapping, Sequence

# A log of the longest game any engine allows is well under a megabyte.
MAX_LOG_BYTES = 16 * 1024 * 1024

HEADER_KEYS = ("deck", "players", "seed", "variant", "params", "event", "date", "notes", "undo")
UNDO_KEYS = ("after", "player", "moves")


class MalformedLog(UnreadableInput):
    """A log that cannot be read as a game (exit code 2): names file, line and field."""


@dataclass(frozen=True, slots=True)
class LogStep:
    """One action read from a log, and where it was written. `action` None means a chance
    event the log leaves to its seed."""

    action: Any
    field: str


class Entry:
    """A table inside a log together with its field path, for typed reads with good errors."""

    __slots__ = ("log", "data", "field")

    def __init__(self, log: "GameLog", data: Mapping[str, Any], field: str):
        self.log = log
        self.data = data
        self.field = field

    def at(self, key: str | int) -> str:
        return field_path(self.field, key)

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ..., what: str = "") -> Any:
        """The value under `key`, checked to be of `kind`; missing is an error unless a default is given."""
        if key not in self.data:
            if default is ...:
                raise self.log.error(self.at(key), f"missing {what or key!r}")
            return default
        value = self.data[key]
        return self.log.check_type(value, kind, self.at(key), what or key)

    def table(self, key: str, default: Any = ...) -> "Entry | None":
        value = self.get(key, dict, default)
        return value if value is None or value is default else Entry(self.log, value, self.at(key))

    def check_keys(self, known: Sequence[str]) -> None:
        for key in self.data:
            if key not in known:
                raise self.log.error(self.at(key), f"unknown key {key!r}; known here: {', '.join(known)}")


class GameLog:
    """A parsed log: the header, the raw engine tables, and helpers that raise `MalformedLog`."""

    def __init__(self, data: dict, text: str, path: Path | None, deck: Deck):
        self.data = data
        self.path = path
        self.deck = deck
        self._text = text
        self._positions: _ValuePositions | None = None  # scanned on the first error only
        self._cards = {card.code.upper(): card for card in deck.cards}
        self.root = Entry(self, data, "")
        self.players: tuple[str, ...] = ()
        self.seed: int | None = None
        self.variants: tuple[str, ...] = ()
        self.params: dict[str, Any] = {}
        self.undone: list[dict] = []  # the [[undo]] entries: moves taken back at the table

    # -- errors -------------------------------------------------------------------------
    def error(self, field: str, message: str, hint: str = "") -> MalformedLog:
        return MalformedLog(Problem(message, field=field, line=self.line(field), file=self.path, hint=hint))

    def line(self, field: str) -> int | None:
        if self._positions is None:
            self._positions = _ValuePositions(self._text)
        return self._positions.line(field)

    def check_type(self, value: Any, kind: type | tuple[type, ...], field: str, what: str) -> Any:
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
            raise self.error(field, f"{what} must be {names}, not {_describe(value)}")
        return value

    # -- the header ---------------------------------------------------------------------
    def read_header(self, engine_sections: Sequence[str]) -> None:
        root = self.root
        root.check_keys(HEADER_KEYS + tuple(engine_sections))
        named = root.get("deck", str, None)
        if named is not None and named != self.deck.id:
            raise self.error("deck", f"this log is for deck {named!r}, not {self.deck.id!r}",
                             hint=f"referee it with: deckgen referee {named} ...")
        players = root.get("players", list, what="players (names in seating order)")
        if not players:
            raise self.error("players", "the log names no players")
        for index, name in enumerate(players):
            self.check_type(name, str, field_path("players", index), "a player name")
            if not name.strip():
                raise self.error(field_path("players", index), "a player name is empty")
            if name.casefold() in (other.casefold() for other in players[:index]):
                raise self.error(field_path("players", index), f"player {name!r} is listed twice")
        self.players = tuple(players)
        self.seed = root.get("seed", int, None)
        variant = root.get("variant", (str, list), None)
        names = [variant] if isinstance(variant, str) else list(variant or ())
        known = [v.id for v in self.deck.variants]
        for index, name in enumerate(names):
            where = "variant" if isinstance(variant, str) else field_path("variant", index)
            self.check_type(name, str, where, "a variant id")
            if name not in known:
                raise self.error(where, f"unknown variant {name!r}; the deck has: {', '.join(known) or 'none'}")
        self.variants = tuple(names)
        for name in self.variants:
            self.params.update(self.deck.variant(name).params)
        self.params.update(root.get("params", dict, {}))
        hand = self.params.get("hand_size")
        if isinstance(hand, int) and not isinstance(hand, bool) and hand * len(self.players) > self.deck.total:
            raise self.error("params.hand_size" if "hand_size" in root.get("params", dict, {}) else "players",
                             f"a hand of {hand} cards for each of {len(self.players)} players needs "
                             f"{hand * len(self.players)} cards; the deck has {self.deck.total}",
                             hint="the log's [params] change the deck's engine parameters for this game only")
        self.undone = self._read_undo()

    def _read_undo(self) -> list[dict]:
        """The `[[undo]]` entries, checked: a count of actions kept, a player, the moves taken back."""
        entries = []
        for entry in self.sections("undo", required=False):
            entry.check_keys(UNDO_KEYS)
            after = entry.get("after", int, what="after (the number of actions kept)")
            if after < 0:
                raise self.error(entry.at("after"), f"after must be 0 or more, not {after}")
            player = self.players[self.seat(entry.get("player", str), entry.at("player"))]
            moves = entry.get("moves", list, what="moves (the actions taken back)")
            for index, move in enumerate(moves):
                self.check_type(move, str, field_path(entry.at("moves"), index), "a move")
            entries.append({"after": after, "player": player, "moves": list(moves)})
        return entries

    # -- reads engines share --------------------------------------------------------------
    def sections(self, key: str, required: bool = True) -> list[Entry]:
        """The entries of an array of tables such as [[rounds]]."""
        items = self.root.get(key, list, None if not required else ..., what=f"[[{key}]] tables")
        entries = []
        for index, item in enumerate(items or ()):
            where = field_path(key, index)
            self.check_type(item, dict, where, f"[[{key}]] entry")
            entries.append(Entry(self, item, where))
        return entries

    def seat(self, name: Any, field: str) -> int:
        """A player's seat from the name written in the log (case-insensitive)."""
        self.check_type(name, str, field, "a player name")
        folded = name.strip().casefold()
        for seat, player in enumerate(self.players):
            if player.casefold() == folded:
                return seat
        raise self.error(field, f"unknown player {name!r}; the log's players are {', '.join(self.players)}")

    def card(self, code: Any, field: str) -> Card:
        """A card of the deck by code (case-insensitive), id or name."""
        card = self._cards.get(code.upper()) if type(code) is str else None
        if card is not None:
            return card
        self.check_type(code, str, field, "a card code")
        card = self.deck.find_card(code)
        if card is None:
            raise self.error(field, f"no card {code!r} in deck {self.deck.id!r}",
                             hint="use the deck's card codes; `deckgen show DECK` lists them")
        return card


def read_log(path: Path, deck: Deck, engine_sections: Sequence[str]) -> GameLog:
    """Read a log file and its header; engine tables stay raw for the engine's `log_steps`."""
    try:
        raw = read_input(Path(path), "log")
    except UnreadableInput as error:
        raise MalformedLog(error.problem) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise MalformedLog(Problem("not UTF-8", line=line, file=Path(path), hint="save the log as UTF-8")) from None
    return parse_log(text, deck, engine_sections, Path(path))


def parse_log(text: str, deck: Deck, engine_sections: Sequence[str], path: Path | None = None) -> GameLog:

    try:
        data = parse_toml(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        reason = re.sub(r"\s*\((at line \d+, column \d+|at end of document)\)", "", message)
        line = int(match.group(1)) if match else (len(text.splitlines()) if "end of document" in message else None)
        raise MalformedLog(Problem(f"not valid TOML: {reason}", line=line,
                                   file=path, hint="check quotes, brackets and commas here or on the line before")) from None
    log = GameLog(data, text, path, deck)
    log.read_header(engine_sections)
    return log


# -- field paths and where they are written --------------------------------------------------

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_FIELD_PART = re.compile(r'\.?([A-Za-z0-9_-]+)|\."((?:[^"\\]|\\.)*)"|\[(\d+)\]')


def field_path(base: str, key: str | int) -> str:
    """`rounds[2]` + "hands" -> `rounds[2].hands`; + 3 -> `rounds[2][3]`; quotes keys that need it."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    part = key if _BARE_KEY.match(key) else '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{base}.{part}" if base else part


def _field_parts(field: str) -> list[str | int]:
    parts: list[str | int] = []
    for bare, quoted, index in _FIELD_PART.findall(field):
        if index:
            parts.append(int(index))
        else:
            parts.append(bare or quoted.replace('\\"', '"').replace("\\\\", "\\"))
    return parts


class _ScanStuck(Exception):
    """The position scan met text it cannot follow; the positions found so far stand."""


def _advanced(previous: int, position: int) -> int:
    """`position`, after checking the scan moved on since `previous` (so it can never loop)."""
    if position <= previous:
        raise _ScanStuck
    return position


class _ValuePositions:
    """Where each key, table and array element starts in a TOML text (tomllib gives no
    positions): a structural scan that knows strings, arrays, inline tables and headers."""

    def __init__(self, text: str):
        self.text = text
        self.starts: dict[tuple, int] = {}
        self._array_counts: dict[tuple, int] = {}
        try:
            self._scan()
        except (IndexError, ValueError, RecursionError, _ScanStuck):
            pass  # the text parsed as TOML, so this is only a scan cut short: keep what we have

    def line(self, field: str) -> int | None:
        parts = tuple(_field_parts(field))
        for cut in range(len(parts), 0, -1):
            position = self.starts.get(parts[:cut])
            if position is None:
                continue
            for part in parts[cut:]:
                try:
                    inner = self._descend(position, part)
                except (IndexError, ValueError, RecursionError, _ScanStuck):
                    inner = None
                if inner is None:
                    break
                position = inner
            return self.text.count("\n", 0, position) + 1
        return None

    def _scan(self) -> None:
        text, position, table = self.text, 0, ()
        previous = -1
        while True:
            position = self._skip_blank(position, newlines=True)
            previous = _advanced(previous, position)
            if position >= len(text):
                return
            if text[position] == "[":
                array = text.startswith("[[", position)
                end = self._header_end(position)
                names = self._split_key(text[position + (2 if array else 1):end])
                if array:
                    table = self._resolve(names[:-1]) + (names[-1],)
                    count = self._array_counts.get(table, 0)
                    self._array_counts[table] = count + 1
                    table = table + (count,)
                else:
                    table = self._resolve(names)
                self.starts[table] = position
                position = text.index("\n", end) if "\n" in text[end:] else len(text)
                continue
            equals = self._key_end(position)
            names = tuple(self._split_key(text[position:equals]))
            for cut in range(1, len(names)):  # a dotted key also places its tables: hands.A places hands
                self.starts.setdefault(table + names[:cut], position)
            value = self._skip_blank(equals + 1)
            self.starts[table + names] = value
            position = self._skip_value(value)

    def _resolve(self, names: list[str]) -> tuple:
        """A header's path with the current index of every array of tables along it."""
        path: tuple = ()
        for name in names:
            path = path + (name,)
            if path in self._array_counts:
                path = path + (self._array_counts[path] - 1,)
        return path

    def _key_end(self, position: int) -> int:
        text = self.text
        while text[position] != "=":
            if text[position] in "\"'":
                position = self._skip_string(position)
            elif text[position] == "\n":
                raise _ScanStuck  # a key never spans lines: the scan lost its place
            else:
                position += 1
        return position

    def _header_end(self, position: int) -> int:
        """The `]` closing the header at `position` (quoted keys may hold brackets)."""
        text = self.text
        position += 1
        while text[position] != "]":
            if text[position] in "\"'":
                position = self._skip_string(position)
            elif text[position] == "\n":
                raise _ScanStuck
            else:
                position += 1
        return position

    @staticmethod
    def _split_key(raw: str) -> list[str]:
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([^.\s]+)', raw)
        return [double or single or bare for double, single, bare in parts]

    def _skip_blank(self, position: int, newlines: bool = False) -> int:
        text = self.text
        while position < len(text):
            char = text[position]
            if char == "#":
                position = text.find("\n", position)
                if position < 0:
                    return len(text)
            elif char in " \t\r" or (newlines and char == "\n"):
                position += 1
            else:
                break
        return position

    def _skip_string(self, position: int) -> int:
        """The position just past the string starting at `position`: basic strings honour
        backslash escapes (multi-line ones too), literal strings have none, and a closing
        triple quote may carry up to two more quotes of the string's own."""
        text = self.text
        quote = text[position]
        escapes = quote == '"'
        if text.startswith(quote * 3, position):
            position += 3
            while not text.startswith(quote * 3, position):
                position += 2 if escapes and text[position] == "\\" else 1
                if position >= len(text):
                    raise _ScanStuck
            end = position + 3
            extra = 0
            while extra < 2 and text.startswith(quote, end):
                end += 1
                extra += 1
            return end
        position += 1
        while text[position] != quote:
            if text[position] == "\n":
                raise _ScanStuck  # one-line strings end on their line
            position += 2 if escapes and text[position] == "\\" else 1
        return position + 1

    def _skip_value(self, position: int) -> int:
        text = self.text
        char = text[position]
        if char in "\"'":
            return self._skip_string(position)
        if char in "[{":
            closing = "]" if char == "[" else "}"
            position += 1
            previous = -1
            while True:
                position = self._skip_blank(position, newlines=True)
                previous = _advanced(previous, position)
                if text[position] == closing:
                    return position + 1
                if text[position] == ",":
                    position += 1
                    continue
                if char == "{":
                    position = self._skip_blank(self._key_end(position) + 1)
                position = self._skip_value(position)
        start = position
        while position < len(text) and text[position] not in ",]}\n#":
            position += 1
        if position == start:
            raise _ScanStuck  # no value here: the scan lost its place
        return position

    def _descend(self, position: int, part: str | int) -> int | None:
        """The start of element `part` (an index or an inline-table key) of the value at `position`."""
        text = self.text
        opening = text[position] if position < len(text) else ""
        if opening not in "[{" or (opening == "[") != isinstance(part, int):
            return None
        closing = "]" if opening == "[" else "}"
        index, position = 0, position + 1
        previous = -1
        while True:
            position = self._skip_blank(position, newlines=True)
            previous = _advanced(previous, position)
            if position >= len(text) or text[position] == closing:
                return None
            if text[position] == ",":
                position += 1
                continue
            if opening == "{":
                equals = self._key_end(position)
                names = self._split_key(text[position:equals])
                value = self._skip_blank(equals + 1)
                if names and names[0] == part:
                    return value if len(names) == 1 else position
                position = self._skip_value(value)
            else:
                if index == part:
                    return position
                index += 1
                position = self._skip_value(position)


# -- writing -------------------------------------------------------------------------------------

def dump_log(header: Mapping[str, Any], body: Mapping[str, Any], comments: Sequence[str] = ()) -> str:
    """A log as TOML text: comments, the header, then the engine's tables.

    Values may be strings, ints, bools, lists and dicts. In a table, a dict of scalars becomes
    an inline table, a dict of lists becomes dotted keys (`hands.North = [...]`), a list of
    lists one inner list per line, and a top-level list of dicts an array of tables.
    """
    lines = [f"# {comment}" if comment else "#" for comment in comments]
    if lines:
        lines.append("")
    data = {**header, **body}
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    arrays = {k: v for k, v in data.items() if isinstance(v, list) and v and all(isinstance(i, dict) for i in v)}
    for key, value in data.items():
        if key not in tables and key not in arrays:
            lines.extend(_dump_pair(key, value))
    for key, value in tables.items():
        lines += ["", f"[{_key(key)}]"]
        for inner_key, inner_value in value.items():
            lines.extend(_dump_pair(inner_key, inner_value))
    for key, items in arrays.items():
        for item in items:
            lines += ["", f"[[{_key(key)}]]"]
            for inner_key, inner_value in item.items():
                lines.extend(_dump_pair(inner_key, inner_value))
    return "\n".join(lines) + "\n"


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _scalar(key)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_scalar(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to a log")


def _dump_pair(key: str, value: Any) -> list[str]:
    if isinstance(value, dict) and value and all(isinstance(v, list) for v in value.values()):
        return [f"{_key(key)}.{_key(k)} = {_scalar(v)}" for k, v in value.items()]
    if isinstance(value, list) and value and all(isinstance(item, list) for item in value):
        return [f"{_key(key)} = ["] + [f"  {_scalar(item)}," for item in value] + ["]"]
    return [f"{_key(key)} = {_scalar(value)}"]


_TYPE_NAMES = {str: "text", int: "a whole number", list: "a list", dict: "a table", bool: "true or false"}


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    return {str: "text", int: "a number", float: "a number", list: "a list", dict: "a table"}.get(
        type(value), type(value).__name__)
