"""`record`: `@dataclass(frozen=True, slots=True)`, cheaper to define.

Python 3.11's dataclasses compile every generated method from source text when the class is
defined, which is most of what importing the deck model costs (the quick commands import it
to unpickle a deck); the model, `errors.Problem` and the engine API's small value classes are
records. A record is a real frozen, slotted dataclass (`dataclasses.fields`,
`replace`, `asdict`, pickling and immutability are dataclasses' own), whose `__init__` and
`__setattr__`/`__delattr__` dataclasses generates as ever, and whose `__eq__`, `__hash__` and
`__repr__` are these shared ones, which compute exactly what the generated ones compute: the
same comparisons, the same hash values (so sets of records iterate in the same order) and
the same text.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from _thread import get_ident


def record(cls: type) -> type:
    """`@dataclass(frozen=True, slots=True)` with shared comparison, hash and repr."""
    cls = dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)
    declared = fields(cls)
    compared = _getter([f.name for f in declared if f.compare])
    hashed = _getter([f.name for f in declared if (f.compare if f.hash is None else f.hash)])
    shown = [f.name for f in declared if f.repr]

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self):
        return hash(hashed(self))

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

    for method in (__eq__, __hash__, __repr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)
    return cls


_REPRESENTING: set[tuple[int, int]] = set()


def _getter(names: list[str]):
    """The named attributes as a tuple (one name too, as the generated methods build it)."""
    if len(names) == 1:
        name = names[0]
        return lambda item: (getattr(item, name),)
    if not names:
        return lambda item: ()
    return attrgetter(*names)
