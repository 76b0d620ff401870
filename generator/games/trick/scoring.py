"""The end of a round and of the game by the rules' `[rules.scoring]` and `[rules.end]`: each
scorer's (player's or team's) counts, the named `let` values in order, the round's points
and the carried counts; the record of the round; whether the game is over; who won.

A scorer's counts are the sums of its members' (a team's tricks are its players' tricks);
`sum_members(...)` and the like read each member alone, `sum_all(...)` and the like every
scorer. Every scorer's `let` values are computed before the next name, so a later one may
compare scorers (Hearts' shooting the moon reads whether anyone else shot it).
"""

from __future__ import annotations

from ..base import CHANCE, TERMINAL, Outcome
from .flow import highest_bidder, start_round

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any


def _member_env(state, seat: int, base: dict) -> dict:
    game = state.game
    env = {**base, "tricks": state.won[seat], "points": state.hand_points[seat]}
    if game.bidding is not None:
        env["bid"] = state.bids[seat]
    if game.trump_kind == "highest-bidder":
        env["maker"] = seat == base["*maker"]
    if game.counted:
        caught = set(state.caught[seat]) if state.table.unique else None
        for key, cards in zip(game.counted_keys, state.tables.counted):
            env[key] = (sum(1 for card in caught if card in cards) if caught is not None
                        else sum(1 for card in state.caught[seat] if card in cards))
    return env


def round_points(state) -> list[int]:
    """Each seat's points for the round just played (a team's members score the team's)."""
    game = state.game
    sitter = state.info.sitter
    if game.plain_scoring is not None and sitter < 0:  # each player alone, from a few counts: the env holds only those
        columns, values = game.plain_scoring
        common = {name: read(state) for name, read in values}
        by_seat = [(name, read(state)) for name, read in columns]
        score = game.round_score
        points = []
        for seat in range(state.num_players):
            env = common.copy()
            for name, column in by_seat:
                env[name] = column[seat]
            points.append(score(env))
        return points
    n = state.num_players
    base = {"hand": state.hand_size, "round": state.round + 1, "players": n, "playing": state.info.playing}
    if game.trump_kind == "highest-bidder":
        base["*maker"] = maker = highest_bidder(state)
        base["contract"] = state.bids[maker]
    members = [_member_env(state, seat, base) if seat != sitter else {} for seat in range(n)]
    envs = []
    scorers = [seats for seats in game.scorer_seats(n) if sitter not in seats]  # who sits out scores nothing
    for seats in scorers:
        env = dict(base)
        for key in ("tricks", "points", "bid", *game.counted_keys):
            if key in members[seats[0]]:
                env[key] = sum(members[seat][key] for seat in seats)
        env["score"] = state.totals[seats[0]]
        if "*maker" in base:
            env["maker"] = base["*maker"] in seats
        for name in state.info.carried:
            env[name] = state.info.carried[name][seats[0]]
        env["*members"] = [members[seat] for seat in seats]
        envs.append(env)
    for env in envs:
        env["*all"] = envs
    for name, compiled in game.lets:
        values = [compiled(env) for env in envs]
        for env, value in zip(envs, values):
            env[name] = value
    points = [game.round_score(env) for env in envs]
    carried = {name: [compiled(env) for env in envs] for name, compiled in game.carries}
    by_seat = [0] * n
    for index, seats in enumerate(scorers):
        for seat in seats:
            by_seat[seat] = points[index]
            for name, values in carried.items():
                state.info.carried[name][seat] = values[index]
    return by_seat


def end_round(state) -> None:
    game, rules = state.game, state.game.rules
    points = round_points(state)
    state.totals = [total + p for total, p in zip(state.totals, points)]
    # no copies: the next round starts new lists, so these stay as they are
    entry: dict[str, Any] = {"dealer": state.dealer, "turned": state.info.turned, "trump": state.trump,
                             "round_suit": state.info.round_suit, "bids": state.bids, "won": state.won, "tricks": state.won,
                             "points": points, "totals": state.totals}
    if rules.passing is not None:
        entry["direction"] = state.direction
    if state.info.carried:
        entry["carried"] = {name: list(values) for name, values in state.info.carried.items()}
    state.history.append(entry)
    number = state.round + 1
    target = game.target
    if (state.rounds_total is not None and number >= state.rounds_total
            or target is not None and (max(state.totals) >= target)
            or game.max_rounds is not None and number >= game.max_rounds):
        state.phase = TERMINAL
        return
    state.round += 1
    state.dealer = (state.dealer + rules.deal.rotation) % state.num_players
    state.phase = CHANCE
    start_round(state)


def outcome(state) -> Outcome | None:
    if state.phase != TERMINAL:
        return None
    game = state.game
    totals = state.totals
    best = (min if game.lower_score_wins else max)(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    if len(winners) > 1 and game.tie_break is not None:
        values = {seat: game.tie_break(tie_env(state, seat)) for seat in winners}
        top = max(values.values())
        winners = [seat for seat in winners if values[seat] == top]
    capped = (state.rounds_total is None and game.target is not None and max(totals) < game.target)
    return Outcome(tuple(totals), tuple(winners), "turn-cap" if capped else "finished")


def tie_env(state, seat: int) -> dict:
    names = state.game.tie_names
    env = {"score": state.totals[seat]}
    if "total_tricks" in names:
        env["total_tricks"] = sum(entry["won"][seat] for entry in state.history)
    if "total_bids" in names:
        env["total_bids"] = sum(entry["bids"][seat] or 0 for entry in state.history)  # none while sitting out
    for name, values in state.info.carried.items():
        env[name] = values[seat]
    return env


# How each count of a player's round is read, for the plain scoring of `round_points`: by
# seat from a list, or one value for all.
PLAIN_COLUMNS = {
    "tricks": lambda state: state.won, "points": lambda state: state.hand_points,
    "bid": lambda state: state.bids, "score": lambda state: state.totals,
}
PLAIN_VALUES = {
    "hand": lambda state: state.hand_size, "round": lambda state: state.round + 1,
    "players": lambda state: state.num_players, "playing": lambda state: state.info.playing,
}
