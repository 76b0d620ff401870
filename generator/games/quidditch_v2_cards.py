"""Quidditch v2: the cards. Card ids, the actions players and chance take, and the
effects of every card, as a mixin of the game state (`QuidditchV2State` in
`generator.games.quidditch_v2_state` runs the turn; the methods here say what each card does).

Card numbers (dominance, die faces, margins) come from each card's `props` in the deck,
with the printed values as defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .base import CHANCE

# Card ids the engine gives meaning to (the deck's ids; codes may change freely).
QUAFFLE = "quaffle"
SNITCH = "golden-snitch"
SWEEP = "sweeping-play"
LPASS = "lightning-passing"
FLYHIGH = "flying-high"
TRICK = "trick-play"
TOUGH = "playing-tough"
TACBLUD = "tactical-bludgering"
WEAVE = "weaving"
BLISTER = "blistering-speed"
OUTPROB = "outside-problems"
SUPPORT = "supporters"
QUIET = "its-all-gone-quiet"
DOPPLE = "dopplebeater-defence"
NERVES = "match-nerves"
RAIN = "rain"
SAVED = "saved"
STRAYED = "strayed-off-the-pitch"
STUNNED = "stunned-by-a-bludger"
PASS = "pass"
PENALTY = "penalty"
BLAG = "blagging"
WRONSKI = "wronski-feint"
NIPPY = "nippy-seeker"
ACCBEAT = "accurate-beater"
POWBEAT = "powerful-beater"
CRACK = "crack-shot-chaser"
SUREHAND = "sure-handed-chaser"
CAPTAIN = "competitive-captain"
KEEPER = "top-keeper"
N2000 = "nimbus-2000"
N2001 = "nimbus-2001"
FIREBOLT = "firebolt"

KNOWN_CARDS = frozenset({
    QUAFFLE, SNITCH, SWEEP, LPASS, FLYHIGH, TRICK, TOUGH, TACBLUD, WEAVE, BLISTER, OUTPROB,
    SUPPORT, QUIET, DOPPLE, NERVES, RAIN, SAVED, STRAYED, STUNNED, PASS, PENALTY, BLAG,
    WRONSKI, NIPPY, ACCBEAT, POWBEAT, CRACK, SUREHAND, CAPTAIN, KEEPER, N2000, N2001, FIREBOLT,
    "bludger-the-seeker", "daring-risk", "perfect-catch", "obstruction-by-the-chaser",
    "nudge-off-course", "quick-off-the-mark",
})
# Actions that target one opponent when played.
OPPONENT_ACTIONS = frozenset({TACBLUD, WRONSKI, PENALTY, BLAG})
# Things that target one opponent when played.
OPPONENT_THINGS = frozenset({OUTPROB, NERVES})
RESPONSES = frozenset({SAVED, PASS})
# Things acting at the start of their controller's turn, and at the start of their target's.
START_OF_OWN_TURN = frozenset({LPASS, SUPPORT, TOUGH, N2000, N2001, FIREBOLT})
START_OF_TARGET_TURN = frozenset({OUTPROB, NERVES})


# ------------------------------------------------------------------------------ actions

@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the card that comes off the draw pile."""
    card: str


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: a die roll."""
    value: int


@dataclass(frozen=True, slots=True)
class Coin:
    """Chance: a coin flip."""
    heads: bool


@dataclass(frozen=True, slots=True)
class FirstPlayer:
    """Chance: the seat that takes the first turn."""
    seat: int


@dataclass(frozen=True, slots=True)
class RandomPick:
    """Chance: the card picked at random from a hand (Powerful Beater)."""
    card: str


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from hand, with the player or Thing it targets and a card paid as cost."""
    card: str
    player: int | None = None
    thing: int | None = None  # uid of a Thing in play
    cost: str | None = None


@dataclass(frozen=True, slots=True)
class EndPlays:
    """Play no more cards this turn."""


@dataclass(frozen=True, slots=True)
class Manoeuvre:
    """A manoeuvre ('score', 'bludger', 'snatch', 'outfly', 'search') or 'skip'."""
    kind: str
    target: int | None = None
    random: bool = False  # Bludger with Powerful Beater's random discard


@dataclass(frozen=True, slots=True)
class Discard:
    card: str


@dataclass(frozen=True, slots=True)
class Accept:
    """Take an optional effect: draw for Quiet or Captain, discard two to stop a Penalty."""


@dataclass(frozen=True, slots=True)
class Decline:
    """Let a response window or an optional effect pass."""


@dataclass(frozen=True, slots=True)
class Pick:
    """Choose a player for an effect already under way (Rain, Playing Tough's penalty)."""
    seat: int


@dataclass(frozen=True, slots=True)
class Destroy:
    """Destroy one of your own Things where a card allows it (Playing Tough)."""
    thing: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """The Seeker cards a player shows for the Snitch (sorted card ids; empty is allowed)."""
    cards: tuple[str, ...]


# Actions are values: the ones offered again and again are made once and shared, so listing
# the legal actions builds no objects and `action in legal` matches by identity first.
_PLAYS: dict[tuple, Play] = {}
_MANOEUVRES: dict[tuple, Manoeuvre] = {}
DRAWS: dict[str, Draw] = {}


def play_of(card: str, player: int | None = None, thing: int | None = None, cost: str | None = None) -> Play:
    key = (card, player, thing, cost)
    action = _PLAYS.get(key)
    if action is None:
        action = _PLAYS[key] = Play(card, player, thing, cost)
    return action


# The plays offered most often, by card and by (card, opponents in turn order): one lookup each.
_PLAIN_PLAYS: dict[str, Play] = {}
_PLAYS_AT: dict[tuple, tuple[Play, ...]] = {}


def plain_play(card: str) -> Play:
    """`play_of(card)`, kept by card."""
    action = _PLAIN_PLAYS[card] = play_of(card)
    return action


def plays_at(card: str, opponents: tuple[int, ...]) -> tuple[Play, ...]:
    """The card played at each opponent in turn, kept by card and opponents."""
    plays = _PLAYS_AT[card, opponents] = tuple(play_of(card, other) for other in opponents)
    return plays


def manoeuvre_of(kind: str, target: int | None = None, random: bool = False) -> Manoeuvre:
    key = (kind, target, random)
    action = _MANOEUVRES.get(key)
    if action is None:
        action = _MANOEUVRES[key] = Manoeuvre(kind, target, random)
    return action


def draw_of(card: str) -> Draw:
    action = DRAWS.get(card)
    if action is None:
        action = DRAWS[card] = Draw(card)
    return action


_DISCARDS: dict[str, "Discard"] = {}


def discard_of(card: str) -> "Discard":
    action = _DISCARDS.get(card)
    if action is None:
        action = _DISCARDS[card] = Discard(card)
    return action


ROLLS = {value: Roll(value) for value in range(1, 7)}
COINS = {heads: Coin(heads) for heads in (True, False)}
SKIP = manoeuvre_of("skip")
END = EndPlays()
ONLY_END = (END,)
ACCEPT = Accept()
DECLINE = Decline()


@dataclass(frozen=True, slots=True)
class InPlay:
    """A Thing on the table. `uid` tells copies apart; targets are fixed when it is played."""
    uid: int
    card: str
    owner: int
    player: int | None = None
    thing: int | None = None


@dataclass(frozen=True, slots=True)
class CardFacts:
    id: str
    code: str
    name: str
    kind: str  # thing / action / seeker
    subtype: str  # "player", "broomstick", "response", "" ...
    props: Mapping[str, Any]

    @property
    def speed(self) -> int:
        return int(self.props.get("speed", 0))


# ------------------------------------------------------------------------------ card effects

class CardEffects:
    """What each card does. Mixed into the state, whose attributes (table, hands, dom,
    quaffle, stack...) and step helpers (`_push`, `_ask`, `_gain`, `_destroy`...) it uses."""

    def is_blank(self, thing: InPlay) -> bool:
        """Flying High blanks its chosen Thing while its controller has the Quaffle."""
        flyhigh = self.flyhigh
        return flyhigh is not None and flyhigh.thing == thing.uid and flyhigh.owner == self.quaffle

    def has(self, seat: int, card: str) -> bool:
        """Whether the seat controls a working (not blank) copy of the card."""
        for thing in self.table:
            if thing.card == card and thing.owner == seat and not self.is_blank(thing):
                return True
        return False

    def broom_speed(self, seat: int) -> int:
        """Speed of the seat's fastest broomstick in play (0 with none). Blank brooms keep speed."""
        brooms = self.game.brooms
        facts = self.game.facts
        return max((facts[t.card].speed for t in self.table if t.owner == seat and t.card in brooms), default=0)

    def _check_outside_problems(self) -> None:
        """Outside Problems goes the moment its condition holds (qv2.ruling.outside-problems)."""
        thing = self.outprob
        if thing is not None and not self.is_blank(thing):
            target = thing.player
            if self.dom[target] == 0 or self.dom[target] > self.dom[thing.owner]:
                self._destroy(thing)
                self._legal = None

    def _sync_watched(self) -> None:
        """Remember the single Flying High and Outside Problems in play (the deck has one of each)."""
        self.flyhigh = next((t for t in self.table if t.card == FLYHIGH), None)
        self.outprob = next((t for t in self.table if t.card == OUTPROB), None)

    def _remove_from_table(self, thing: InPlay) -> None:
        self.table.remove(thing)
        if thing.card in (FLYHIGH, OUTPROB):
            self._sync_watched()

    def _start_triggers(self, seat: int) -> list[int]:
        """Things that act at the start of this seat's turn, oldest first (qv2.turn.start)."""
        return [t.uid for t in self.table
                if t.card in START_OF_OWN_TURN and t.owner == seat
                or t.card in START_OF_TARGET_TURN and t.player == seat or t.card == RAIN]

    def _do_start_one(self, uid: int) -> None:
        for thing in self.table:  # `self.thing(uid)` and `is_blank`, inlined: one call a trigger
            if thing.uid == uid:
                break
        else:
            return
        flyhigh = self.flyhigh
        if flyhigh is not None and flyhigh.thing == uid and flyhigh.owner == self.quaffle:
            return
        seat, card, owner = self.active, thing.card, thing.owner
        props = self.game.facts[card].props
        if card == RAIN:
            self._ask("roll", CHANCE, "rain", uid)
        elif card in (OUTPROB, NERVES):
            if thing.player == seat:
                if card == OUTPROB:
                    self._gain(seat, props.get("start_dominance", -1))
                else:
                    self._ask("roll", CHANCE, "nerves", uid)
        elif owner != seat:
            return
        elif card == LPASS or card == FIREBOLT:
            self._gain(seat, props.get("start_dominance", 1))
        elif card == SUPPORT:
            if all(self.dom[seat] < self.dom[other] for other in self.opponents(seat)):
                self._gain(seat, props.get("start_dominance", 1))
        elif card == TOUGH:
            self._gain(seat, props.get("start_dominance", 1))
            self._ask("roll", CHANCE, "tough", uid)
        elif card == N2000:
            if not any(t.owner != seat and t.card in self.game.brooms for t in self.table):
                self._gain(seat, 1)
        elif card == N2001:
            own = self.game.facts[card].speed
            if not any(self.broom_speed(other) > own for other in self.opponents(seat)):
                self._gain(seat, 1)

    def _do_end_destroy(self) -> None:
        seat = self.active
        for thing in self.table:  # `_own_toughs`, stopping at the first: every turn, rarely any
            if thing.card == TOUGH and thing.owner == seat and not self.is_blank(thing):
                self.stack.append(("ask", "end", seat))
                return

    def _own_toughs(self, seat: int) -> list[InPlay]:
        return [t for t in self.table if t.card == TOUGH and t.owner == seat and not self.is_blank(t)]

    def _do_quiet(self) -> None:
        best = max(self.score)
        leaders = [seat for seat, points in enumerate(self.score) if points == best]
        if len(leaders) == 1 and (self.draw_total or self.discard):
            self._ask("quiet", leaders[0])

    def _do_blister(self, seat: int, mine: int, seats: tuple[int, ...]) -> None:
        """Blistering Speed: opponents in turn order may discard a faster broom to stop it."""
        facts = self.game.facts
        for index, other in enumerate(seats):
            if any(facts[card].speed > mine for card in self._discardable(other, "broom")):
                self._ask("block", other, seat, mine, seats[index + 1:])
                return
        self._gain(seat, facts[BLISTER].props.get("dominance", 2))

    def _do_penalty(self, seat: int, defender: int, seats: tuple[int, ...]) -> None:
        """Penalty: opponents in turn order may discard two cards to stop it (qv2.ruling.penalty-card)."""
        needed = self.game.facts[PENALTY].props.get("save_discards", 2)
        for index, other in enumerate(seats):
            if self.hand_size(other) >= needed:
                self._ask("penalty_save", other, seat, defender, seats[index + 1:])
                return
        self.stack.append(("goal", seat, defender))

    def _do_tough_penalty(self, owner: int) -> None:
        opponents = self.opponents(owner)
        if len(opponents) == 1:
            self.stack.append(("goal", opponents[0], owner))
        else:
            self._ask("penalty_to", owner)

    def _answer_roll(self, action: Roll, _chance: int, purpose: str, *args) -> None:
        value = action.value
        facts = self.game.facts
        seat = self.active
        if purpose == "tough":
            thing = self.thing(args[0])
            if value in facts[TOUGH].props.get("foul_on", (1,)) and thing is not None:
                self._destroy(thing)
                self.stack.append(("tough_penalty", thing.owner))
        elif purpose == "nerves":
            if value in facts[NERVES].props.get("no_draw_on", (1, 2)):
                self.no_draw = True
        elif purpose == "rain":
            props = facts[RAIN].props
            if value in props.get("pick_on", (1, 2, 3)):
                self._ask("rain_pick", seat)
            elif value in props.get("lose_on", (5, 6)):
                self._gain(seat, -1)
                thing = self.thing(args[0])
                if value in props.get("destroy_on", (6,)) and thing is not None:
                    self._destroy(thing)
        elif purpose == "keeper":
            scorer, defender = args
            if value in facts[KEEPER].props.get("save_on", (5, 6)):
                self.stack.append(("quaffle", defender, defender, True))
            else:
                self.stack.append(("goal_counts", scorer))

    def _answer_coin(self, action: Coin, _chance: int, seat: int) -> None:
        props = self.game.facts[TRICK].props
        if action.heads:
            lowest = all(self.dom[seat] < self.dom[other] for other in self.opponents(seat))
            self._gain(seat, props.get("heads", 2) + (props.get("lowest_bonus", 2) if lowest else 0))
        else:
            self._gain(seat, props.get("tails", 1))

    def _blagging(self, seat: int, target: int, deferred: bool) -> None:
        discards = self.game.facts[BLAG].props.get("discards", 2)
        if deferred:
            self.deferred.append((target, seat))
            self.stack.append(("discard_n", target, discards, "any", "card:blagging"))
        else:
            self._push(("discard_n", target, discards, "any", "card:blagging"), ("goal", target, seat))

    def _answer_block(self, action, defender: int, seat: int, mine: int, rest: tuple[int, ...]) -> None:
        if isinstance(action, Decline):
            self.stack.append(("blister", seat, mine, rest))
        else:
            self._discard_from_hand(defender, action.card)

    def _answer_penalty_save(self, action, other: int, seat: int, defender: int, rest: tuple[int, ...]) -> None:
        if isinstance(action, Decline):
            self.stack.append(("penalty", seat, defender, rest))
        else:
            needed = self.game.facts[PENALTY].props.get("save_discards", 2)
            self.stack.append(("discard_n", other, needed, "any", "card:penalty"))

    def _answer_quiet(self, action, leader: int) -> None:
        if isinstance(action, Accept):
            self.stack.append(("draw", leader, "hand"))

    def _answer_captain(self, action, seat: int) -> None:
        if isinstance(action, Accept):
            props = self.game.facts[CAPTAIN].props
            self._push(*[("draw", seat, "hand")] * props.get("draw", 2),
                       ("discard_n", seat, props.get("discard", 2), "any", "card:competitive-captain"))

    def _answer_rain_pick(self, action, seat: int) -> None:
        if isinstance(action, Pick):
            self._gain(action.seat, -1)

    def _answer_penalty_to(self, action: Pick, owner: int) -> None:
        self.stack.append(("goal", action.seat, owner))

    def _answer_end(self, action, seat: int) -> None:
        if isinstance(action, Destroy):
            self._destroy(self.thing(action.thing))
            self.stack.append(("end_destroy",))

    def _play_card(self, seat: int, action: Play) -> None:
        card = action.card
        facts = self.game.facts[card]
        props = facts.props
        self._take_from_hand(seat, card)
        if facts.kind == "thing":
            self.thing_played = True
            if card == SNITCH:
                self.stack.append(("snitch", seat))
                return
            if card in self.game.brooms:
                for old in [t for t in self.table if t.owner == seat and t.card in self.game.brooms]:
                    if not self.is_blank(old):
                        self._destroy(old)
            self.table.append(InPlay(self.next_uid, card, seat, action.player, action.thing))
            self.next_uid += 1
            if card in (FLYHIGH, OUTPROB):
                self._sync_watched()
            return
        self.action_played = True
        self.discard.append(card)
        target = action.player
        if card in (SWEEP, WEAVE):
            self._gain(seat, props.get("dominance", 1))
        elif card == QUIET:
            self._gain(seat, props.get("dominance", 1))
            self.stack.append(("quiet",))
        elif card == TRICK:
            self._ask("coin", CHANCE, seat)
        elif card == TACBLUD:
            self.dom[target] = (self.dom[target] + 1) // 2
        elif card == BLISTER:
            mine = self.broom_speed(seat)
            if not any(self.broom_speed(other) > mine for other in self.opponents(seat)):
                self.stack.append(("blister", seat, mine, self.opponents(seat)))
        elif card == DOPPLE:
            self._discard_from_hand(seat, action.cost)
            self.missed[target] += props.get("missed_turns", 1)
            self.no_bludger = True
        elif card == STUNNED:
            self._destroy(self.thing(action.thing))
        elif card == STRAYED:
            if self.quaffle is not None:
                self.stack.append(("quaffle", (self.quaffle + 1) % self.num_players, seat, False))
        elif card == PENALTY:
            self.stack.append(("penalty", seat, target, self.opponents(seat)))
        elif card == BLAG:
            self._blagging(seat, target, deferred=False)
        elif card == WRONSKI:
            self.feint_lock[seat] = self.own_turns[seat] + props.get("lockout_turns", 3)
            if self._discardable(target, "seeker"):
                self.stack.append(("discard_n", target, props.get("seeker_discards", 2), "seeker", "card:wronski-feint"))
            else:
                self._gain(seat, -props.get("miss_penalty", 1))

    def _play_options(self, seat: int) -> tuple:
        thing_played, action_played = self.thing_played, self.action_played
        if thing_played and action_played:
            return ONLY_END
        options: list = []
        hand = self.hands[seat]
        game = self.game
        kind_of = game.kind_of
        opponents = self.opponent_seats[seat]
        for card in sorted(hand):
            kind = kind_of[card]
            if kind == "thing" and not thing_played:
                if card == SNITCH:
                    if self.own_turns[seat] > self.feint_lock[seat]:  # not `locked_out`
                        options.append(_PLAIN_PLAYS.get(card) or plain_play(card))
                elif card == FLYHIGH:
                    options.extend(play_of(card, None, t.uid) for t in self.table)
                elif card in OPPONENT_THINGS:
                    options.extend(_PLAYS_AT.get((card, opponents)) or plays_at(card, opponents))
                else:
                    options.append(_PLAIN_PLAYS.get(card) or plain_play(card))
            elif kind == "action" and not action_played and card not in RESPONSES:
                if card in OPPONENT_ACTIONS:
                    options.extend(_PLAYS_AT.get((card, opponents)) or plays_at(card, opponents))
                elif card == DOPPLE:
                    costs = [c for c in sorted(hand) if c != DOPPLE or hand[c] > 1]
                    options.extend(play_of(card, other, None, cost) for other in opponents for cost in costs)
                elif card == STUNNED:
                    options.extend(play_of(card, None, t.uid) for t in self.table if t.card in game.player_cards)
                else:
                    options.append(_PLAIN_PLAYS.get(card) or plain_play(card))
        options.append(END)
        return tuple(options)
