"""`record`: a class that behaves as `@dataclass(frozen=True, slots=True)` (or, with
`frozen=False`, as a plain `@dataclass`), defined without the dataclasses module.

Why: importing dataclasses pulls in inspect (and with it ast, dis, tokenize, enum), and
Python 3.11's dataclasses compile three methods from source text for each class. For the
quick commands (`rule`, `referee`), which import the deck model to unpickle a cached deck
and the engines' small value classes, that was about a quarter of their start-up.

A record has what the dataclass would have: the same `__init__` (defaults, default
factories), equality, hash values (so sets of records iterate in the same order), repr,
`__match_args__`, immutability (`dataclasses.FrozenInstanceError`), `__slots__` and
pickled state. Dataclasses' own functions (`fields`, `replace`, `asdict`, `is_dataclass`)
work on records: the first time one of them asks, `__dataclass_fields__` is built by
running `dataclass` itself on a twin of the record's fields, so they are dataclasses' own
`Field` objects. tests/test_records.py holds records and dataclasses to the same answers.
"""

from __future__ import annotations

import sys
from _thread import get_ident

MISSING = object()  # no default given
_HAS_FACTORY = object()  # the __init__ default standing for "call the default factory"
_SET = object.__setattr__


class field:
    """`dataclasses.field` for records: a default or a default factory, and whether the
    field is shown in the repr, compared and hashed (None: hashed when compared)."""

    __slots__ = ("default", "default_factory", "repr", "hash", "compare")

    def __init__(self, *, default=MISSING, default_factory=MISSING, repr: bool = True,
                 hash: bool | None = None, compare: bool = True):
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.default, self.default_factory = default, default_factory
        self.repr, self.hash, self.compare = repr, hash, compare


class _Field:
    __slots__ = ("name", "annotation", "default", "default_factory", "repr", "hash", "compare")


def record(cls: type | None = None, *, frozen: bool = True, slots: bool | None = None):
    """Decorate a class as `@dataclass(frozen=True, slots=True)`; `record(frozen=False)` as
    `@dataclass` (mutable, unhashable, slotted only with `slots=True`)."""
    slots = frozen if slots is None else slots
    if frozen and not slots:
        raise TypeError("a frozen record is slotted")
    if cls is None:
        return lambda cls: _make(cls, frozen, slots)
    return _make(cls, frozen, slots)


def _make(cls: type, frozen: bool, slots: bool) -> type:
    own = {"__init__", "__eq__", "__hash__", "__repr__"} & set(cls.__dict__)
    if own:
        raise TypeError(f"{cls.__qualname__} defines {', '.join(sorted(own))}: a record makes its own")
    declared = _fields(cls)
    names = tuple(f.name for f in declared)
    namespace = dict(cls.__dict__)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    for f in declared:  # as dataclasses leaves them: plain defaults stay on the class, others go
        if f.name in cls.__dict__:
            del namespace[f.name]
            if not slots and f.default is not MISSING:
                namespace[f.name] = f.default
    init_globals = {"_SET": _SET, "_HAS_FACTORY": _HAS_FACTORY, "__name__": cls.__module__}
    exec(_methods_source(declared, frozen, init_globals), init_globals, namespace)
    namespace["__match_args__"] = names
    if slots:
        namespace["__slots__"] = names
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    for name in ("__init__", "__eq__", "__hash__"):
        if name in namespace:
            namespace[name].__qualname__ = f"{cls.__qualname__}.{name}"
    made.__record_fields__ = declared
    made.__dataclass_fields__ = _DataclassView("__dataclass_fields__", made, frozen)
    made.__dataclass_params__ = _DataclassView("__dataclass_params__", made, frozen)
    _add_repr(made, declared)
    if frozen:
        _add_frozen_methods(made, names)
    else:
        made.__hash__ = None  # as a dataclass that compares and is not frozen
    return made


def _fields(cls: type) -> list[_Field]:
    """The fields in dataclasses' order: a record base's first, then this class's annotations."""
    found: dict[str, _Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__record_fields__", ()):
            found[f.name] = f
    missing_value = getattr(sys.modules.get("dataclasses"), "MISSING", MISSING)
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        if text.split("[")[0].split(".")[-1] in ("ClassVar", "InitVar"):
            raise TypeError(f"{cls.__qualname__}.{name}: records do not take ClassVar or InitVar fields")
        f = _Field()
        f.name, f.annotation = name, annotation
        value = cls.__dict__.get(name, MISSING)
        if isinstance(value, field) or type(value).__name__ == "Field" and hasattr(value, "default_factory"):
            f.default = MISSING if value.default is missing_value else value.default
            f.default_factory = MISSING if value.default_factory is missing_value else value.default_factory
            f.repr, f.hash, f.compare = value.repr, value.hash, value.compare
        else:
            f.default, f.default_factory, f.repr, f.hash, f.compare = value, MISSING, True, None, True
        if f.default is not MISSING and type(f.default).__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: "
                             "use default_factory")
        found[name] = f
    declared = list(found.values())
    seen_default = False
    for f in declared:
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        seen_default = seen_default or has_default
    return declared


def _methods_source(declared: list[_Field], frozen: bool, init_globals: dict) -> str:
    """The source of `__init__`, `__eq__` and (frozen) `__hash__` as dataclasses writes them
    (the same parameters, defaults and comparisons: the engines compare and hash actions in
    their hot paths), compiled at once."""
    parameters, lines = ["__record_self__"], []
    for f in declared:
        value = f.name
        if f.default_factory is not MISSING:
            init_globals[f"_factory_{f.name}"] = f.default_factory
            parameters.append(f"{f.name}=_HAS_FACTORY")
            value = f"_factory_{f.name}() if {f.name} is _HAS_FACTORY else {f.name}"
        elif f.default is not MISSING:
            init_globals[f"_default_{f.name}"] = f.default
            parameters.append(f"{f.name}=_default_{f.name}")
        else:
            parameters.append(f.name)
        lines.append(f"    _SET(__record_self__, {f.name!r}, {value})" if frozen
                     else f"    __record_self__.{f.name} = {value}")

    def fields_of(who: str, names: list[str]) -> str:
        return "(" + "".join(f"{who}.{name}," for name in names) + ")"

    compared = [f.name for f in declared if f.compare]
    source = [f"def __init__({', '.join(parameters)}):", *(lines or ["    pass"]),
              "def __eq__(self, other):",
              "    if other.__class__ is self.__class__:",
              f"        return {fields_of('self', compared)} == {fields_of('other', compared)}",
              "    return NotImplemented"]
    if frozen:
        hashed = [f.name for f in declared if (f.compare if f.hash is None else f.hash)]
        source += ["def __hash__(self):", f"    return hash({fields_of('self', hashed)})"]
    return "\n".join(source) + "\n"


def _add_repr(cls: type, declared: list[_Field]) -> None:
    """`__repr__`, shared: what the generated one prints, without compiling one per class."""
    shown = [f.name for f in declared if f.repr]

    def __repr__(self):
        key = id(self), get_ident()
        if key in _REPRESENTING:  # what dataclasses' recursion guard prints
            return "..."
        _REPRESENTING.add(key)
        try:
            return (self.__class__.__qualname__ + "("
                    + ", ".join(f"{name}={getattr(self, name)!r}" for name in shown) + ")")
        finally:
            _REPRESENTING.discard(key)

    __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
    cls.__repr__ = __repr__


def _add_frozen_methods(cls: type, names: tuple[str, ...]) -> None:
    """Assignment and deletion refused, and the pickled state a frozen slotted dataclass has."""
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __getstate__(self):
        return [getattr(self, name) for name in names]

    def __setstate__(self, state):
        for name, value in zip(names, state):
            _SET(self, name, value)

    for method in (__setattr__, __delattr__, __getstate__, __setstate__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)


def _frozen_error(message: str) -> Exception:
    from dataclasses import FrozenInstanceError  # only when code tries to change a record

    return FrozenInstanceError(message)


class _DataclassView:
    """`__dataclass_fields__` and `__dataclass_params__`, made on first use by dataclasses
    itself from a twin class with the same fields, then kept on the record's class."""

    def __init__(self, attribute: str, owner: type, frozen: bool):
        self.attribute, self.owner, self.frozen = attribute, owner, frozen

    def __get__(self, instance, owner=None):
        import dataclasses

        namespace = {"__annotations__": {}, "__module__": self.owner.__module__,
                     "__qualname__": self.owner.__qualname__}
        for f in self.owner.__record_fields__:
            namespace["__annotations__"][f.name] = f.annotation
            namespace[f.name] = dataclasses.field(
                default=dataclasses.MISSING if f.default is MISSING else f.default,
                default_factory=dataclasses.MISSING if f.default_factory is MISSING else f.default_factory,
                repr=f.repr, hash=f.hash, compare=f.compare)
        twin = dataclasses.dataclass(frozen=self.frozen)(type(self.owner.__name__, (), namespace))
        type.__setattr__(self.owner, "__dataclass_fields__", twin.__dataclass_fields__)
        type.__setattr__(self.owner, "__dataclass_params__", twin.__dataclass_params__)
        return getattr(twin, self.attribute)


_REPRESENTING: set[tuple[int, int]] = set()

