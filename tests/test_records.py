"""`generator.records.record` behaves as `@dataclass(frozen=True, slots=True)`: the same
equality, hash values, repr, immutability, pickling and dataclass functions."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from generator import model
from generator.records import record
from tests.conftest import DECK_PATHS


def twins(namespace: dict, record_options: dict | None = None, dataclass_options: dict | None = None
          ) -> tuple[type, type]:
    """The same class body as a record and as a dataclass (frozen and slotted unless told)."""
    made = []
    record_options = {} if record_options is None else record_options
    dataclass_options = {"frozen": True, "slots": True} if dataclass_options is None else dataclass_options
    for decorate in (record(**record_options), dataclass(**dataclass_options)):
        body = {name: (copy.copy(value) if isinstance(value, dataclasses.Field) else value)
                for name, value in namespace.items()}
        body["__annotations__"] = dict(body["__annotations__"])
        made.append(decorate(type("Thing", (), {**body, "__qualname__": "Thing", "__module__": __name__})))
    return made[0], made[1]


BODIES = {
    "several fields": ({"__annotations__": {"a": "int", "b": "str", "c": "tuple"}, "b": "x", "c": ()},
                       [(1,), (1, "y"), (2, "x", (1, 2)), (1, "x", ((), "nested"))]),
    "one field": ({"__annotations__": {"a": "object"}}, [(1,), ("1",), ((1,),), (None,)]),
    "no field": ({"__annotations__": {}}, [()]),
    "unhashable default": ({"__annotations__": {"a": "int", "d": "dict"}, "d": field(default_factory=dict)},
                           [(1,), (1, {"k": 1})]),
    "field options": ({"__annotations__": {"a": "int", "hidden": "int", "loose": "int", "unhashed": "int"},
                       "hidden": field(default=0, repr=False), "loose": field(default=0, compare=False),
                       "unhashed": field(default=0, hash=False)},
                      [(1,), (1, 2), (1, 0, 5), (1, 0, 0, 7)]),
}


@pytest.mark.parametrize("body, values", BODIES.values(), ids=BODIES.keys())
def test_a_record_is_a_frozen_slotted_dataclass(body, values):
    fast, reference = twins(body)
    made = [(fast(*args), reference(*args)) for args in values]
    for one, other in made:
        assert repr(one) == repr(other)
        try:
            expected_hash = hash(other)
        except TypeError:
            with pytest.raises(TypeError):
                hash(one)
        else:
            assert hash(one) == expected_hash
        assert [f.name for f in dataclasses.fields(one)] == [f.name for f in dataclasses.fields(other)]
        assert dataclasses.asdict(one) == dataclasses.asdict(other)
        assert type(one).__match_args__ == type(other).__match_args__
        assert not hasattr(one, "__dict__")
        assert copy.deepcopy(one) == one  # pickling's protocol (the class must be importable to pickle)
        assert dataclasses.replace(one) == one
        for name in [f.name for f in dataclasses.fields(one)]:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(one, name, 1)
        # Another name is refused too: a record says so as it does for a field, where 3.11's
        # slotted dataclass fails its own super() call with a TypeError.
        assert _refusal(one, "other") == "FrozenInstanceError: cannot assign to field 'other'"
        assert _refusal(other, "other").startswith(("TypeError", "FrozenInstanceError"))
        for first, second in made:
            assert (one == first) == (other == second) and (one != first) == (other != second)
        assert one != other  # another class, whatever the fields
        assert (one == (1,)) is False


def _refusal(item, name: str) -> str:
    try:
        setattr(item, name, 1)
    except Exception as error:  # noqa: BLE001 - which refusal is what is compared
        return f"{type(error).__name__}: {error}"
    return "allowed"


def test_repr_of_a_record_holding_itself_is_the_dataclass_one():
    shown = []
    for kind in twins({"__annotations__": {"items": "list"}}):
        held: list = []
        held.append(kind(held))
        shown.append(repr(held[0]))
    assert shown[0] == shown[1] == "Thing(items=[...])"


@pytest.mark.parametrize("path", DECK_PATHS, ids=lambda path: path.stem)
def test_the_model_hashes_and_shows_as_the_dataclass_would(path):
    from generator.loader import load_deck

    deck = load_deck(path)
    items = [deck, deck.card_size, deck.back, *deck.suits, *deck.ranks, *deck.kinds, *deck.cards, *deck.sections,
             *deck.rulings, *deck.variants, *deck.quickref]
    for item in items:
        names = [f.name for f in dataclasses.fields(item)]
        shown = ", ".join(f"{name}={getattr(item, name)!r}" for name in names)
        assert repr(item) == f"{type(item).__qualname__}({shown})"
        values = tuple(getattr(item, name) for name in names)
        try:
            assert hash(item) == hash(values)
        except TypeError:  # a dict or list in a field: unhashable, as the generated hash is
            with pytest.raises(TypeError):
                hash(values)
        assert item == dataclasses.replace(item) == pickle.loads(pickle.dumps(item))
        assert type(item).__module__ == model.__name__


MUTABLE = {"mutable": ({"frozen": False}, {}), "mutable, slotted": ({"frozen": False, "slots": True}, {"slots": True})}


@pytest.mark.parametrize("options", MUTABLE.values(), ids=MUTABLE.keys())
@pytest.mark.parametrize("body, values", BODIES.values(), ids=BODIES.keys())
def test_a_mutable_record_is_a_dataclass(body, values, options):
    fast, reference = twins(body, *options)
    for args in values:
        one, other = fast(*args), reference(*args)
        assert repr(one) == repr(other)
        assert type(one).__hash__ is type(other).__hash__ is None
        assert hasattr(one, "__dict__") == hasattr(other, "__dict__")
        assert dataclasses.asdict(one) == dataclasses.asdict(other)
        assert dataclasses.replace(one) == one
        assert copy.deepcopy(one) == one
        assert [(f.name, f.default, f.default_factory, f.repr, f.compare, f.hash) for f in dataclasses.fields(one)] \
            == [(f.name, f.default, f.default_factory, f.repr, f.compare, f.hash) for f in dataclasses.fields(other)]
        for name in [f.name for f in dataclasses.fields(one)]:
            setattr(one, name, 5)
            setattr(other, name, 5)
        assert repr(one) == repr(other)
        assert type(one).__match_args__ == type(other).__match_args__
        if not options[0].get("slots"):  # a plain default stays on the class, as dataclasses leaves it
            names = one.__match_args__
            assert [getattr(type(one), n, "absent") for n in names] == [getattr(type(other), n, "absent") for n in names]


def test_records_take_their_own_field_as_dataclasses_take_theirs():
    from generator.records import field as record_field

    fast = record(type("Thing", (), {"__annotations__": {"a": "int", "items": "list"}, "__module__": __name__,
                                     "items": record_field(default_factory=list, compare=False)}))
    one, two = fast(1), fast(1)
    assert one.items == [] and one.items is not two.items
    assert one == fast(1, [2]) and repr(one) == "Thing(a=1, items=[])"
    (items,) = [f for f in dataclasses.fields(one) if f.name == "items"]
    assert items.default_factory is list and items.compare is False


def test_a_record_refuses_what_a_dataclass_refuses():
    with pytest.raises(ValueError, match="mutable default"):
        record(type("Thing", (), {"__annotations__": {"a": "list"}, "a": [], "__module__": __name__}))
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        record(type("Thing", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 0, "__module__": __name__}))
    with pytest.raises(TypeError, match="ClassVar"):
        record(type("Thing", (), {"__annotations__": {"a": "ClassVar[int]"}, "__module__": __name__}))


def test_the_quick_commands_model_and_engines_do_not_import_dataclasses():
    """Why records exist: the model and the engines load without dataclasses (and inspect)."""
    import subprocess
    import sys

    code = ("import sys, generator.model, generator.errors, generator.games.referee, generator.games.wizard, "
            "generator.games.wizard_hearts, generator.games.muggle_quidditch, generator.games.quidditch_v2; "
            "print(sorted({'dataclasses', 'inspect'} & set(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
