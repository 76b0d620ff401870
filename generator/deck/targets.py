"""The deck's [playtest] table: the targets a designer sets for the simulated playtest (seat 1's
share of wins, the median length, timeouts, skill gaps between players), read into
`model.PlaytestTargets` with every meaning error pointed at its field. Whether a named player
exists is the validator's question (it knows the engines); here only its spelling is checked,
by the schema."""

from __future__ import annotations

from typing import Callable

from .model import PlaytestTargets, SkillTarget

Report = Callable[[str, str, str], None]  # (field, message, hint)


def read_targets(data: dict, fewest: int, most: int, error: Report) -> PlaytestTargets:
    """[playtest] as targets; `error(field, message, hint)` for each one that cannot be checked."""
    table = data.get("playtest")
    if not table:
        return PlaytestTargets()
    players = _counts(table.get("players", ()), "playtest.players", fewest, most, error)
    bands = {}
    for name in ("first_seat_win", "median_length"):
        band = table.get(name)
        if band is not None:
            if band[0] > band[1]:
                error(f"playtest.{name}", f"the band [{band[0]}, {band[1]}] runs backwards",
                      f"write the lower bound first: [{band[1]}, {band[0]}]")
            bands[name] = (band[0], band[1])
    timeouts = table.get("timeouts_below")
    if timeouts == 0:
        error("playtest.timeouts_below", "a share below 0 can never hold",
              "write the largest share of games the length cap may stop, e.g. 0.01")
    skill = []
    for index, raw in enumerate(table.get("skill", ())):
        field = f"playtest.skill[{index}]"
        if raw["player"] == raw["beats"]:
            error(f"{field}.beats", f"{raw['player']!r} is set against itself",
                  "name two different players, the stronger as `player`")
        if not 0 < raw["at_least"] < 1:
            error(f"{field}.at_least", f"{raw['at_least']} can never be shown to hold or fail",
                  "write a share between 0 and 1, e.g. 0.6 (0.5 is an even match)")
        counts = _counts(raw.get("players", ()), f"{field}.players", fewest, most, error)
        skill.append(SkillTarget(raw["player"], raw["beats"], float(raw["at_least"]), counts, field))
    return PlaytestTargets(players, bands.get("first_seat_win"), bands.get("median_length"),
                           float(timeouts) if timeouts is not None else None, tuple(skill))


def _counts(values, field: str, fewest: int, most: int, error: Report) -> tuple[int, ...]:
    outside = [count for count in values if not fewest <= count <= most]
    if outside:
        error(field, f"{', '.join(map(str, outside))} players: outside the deck's {fewest} to {most} players",
              f"list player counts from {fewest} to {most}, or leave the field out for all of them")
    return tuple(sorted(set(values) - set(outside)))
