"""The trick-taking core shared by Wizard and Wizard Hearts: cards as small ints with
precomputed tables, dealing, following suit, playing out tricks, passing directions,
and the log reading and writing both games share.

A card is the index of a distinct card in `deck.cards`; identical copies (Wizard's four
Wizards) share one index, so a hand is a list of ints that may repeat, and a legal action
is one distinct card. A `TrickState` plays tricks; each game adds its phases (bidding,
trump, passing) and says who wins a trick and what is legal.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import partial
from itertools import repeat, starmap
from math import ceil, log

from ..core.errors import DeckgenError
from ..deck.model import Deck
from .base import CHANCE, TERMINAL, GameState, IllegalAction
from .trick_view import PLAY, TrickView
from .logs import Entry, GameLog, LogStep

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Iterable, Iterator, Sequence

NO_SUIT = -1


class CardTable:
    """Per-card facts as tuples indexed by card int, built once per game."""

    def __init__(self, deck: Deck):
        self.deck = deck
        self.cards = deck.cards
        self.suits = deck.suits
        self.suit_index = {suit.id: index for index, suit in enumerate(deck.suits)}
        self.code = tuple(card.code for card in deck.cards)
        self.name = tuple(card.name for card in deck.cards)
        self.kind = tuple(card.kind for card in deck.cards)
        self.suit = tuple(self.suit_index[card.suit] if card.suit else NO_SUIT for card in deck.cards)
        self.rank = tuple(deck.rank(card.rank).order if card.rank else -1 for card in deck.cards)
        self.copies = tuple(card.count for card in deck.cards)
        self.by_id = {card.id: index for index, card in enumerate(deck.cards)}
        self.physical = [index for index, card in enumerate(deck.cards) for _ in range(card.count)]  # sorted
        self.total = len(self.physical)
        self.unique = all(copies == 1 for copies in self.copies)

    def index(self, ref: str) -> int | None:
        card = self.deck.find_card(ref)
        return None if card is None else self.by_id[card.id]

    def codes(self, cards: Iterable[int]) -> list[str]:
        return [self.code[card] for card in cards]

    def sorted(self, cards: Iterable[int]) -> list[int]:
        """Cards grouped by suit (deck order), low to high: how a player sorts a hand."""
        return sorted(cards, key=lambda c: (self.suit[c] if self.suit[c] != NO_SUIT else len(self.suits),
                                            self.rank[c], c))

    def suit_from_text(self, text: str) -> int | None:
        """A suit by id, name, code or symbol, singular or plural, any case."""
        wanted = text.strip().casefold()
        for index, suit in enumerate(self.suits):
            names = {suit.id.casefold(), suit.name.casefold(), suit.code.casefold(), suit.symbol}
            names |= {name.rstrip("s") for name in names if len(name) > 2}
            if wanted in names or wanted.rstrip("s") in names:
                return index
        return None


class CardTables(dict):
    """Per-card tables by key (a trump suit, a suit led...), each built on first use by
    `build(key)`, so making a game stays cheap when most are never needed."""

    def __init__(self, build):
        super().__init__()
        self.build = build

    def __missing__(self, key):
        table = self[key] = self.build(key)
        return table


def shuffled(cards: Sequence[int], rng) -> list[int]:
    """A uniformly shuffled copy: sorting by random keys costs one C-level draw per card,
    several times faster than `random.shuffle` for a deck. Each card's key is
    `next(draws, card)`: sorting asks for the keys card by card, so the draws come in card
    order, without a Python-level call per card."""
    return sorted(cards, key=partial(next, starmap(rng.random, repeat(()))))


def random_below(rng, n: int) -> int:
    """`rng.randrange(n)` for n > 0, draw for draw, without the library's argument checks
    and its two Python-level calls."""
    getrandbits = rng.getrandbits
    bits = n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


def sample_cards(population: Sequence[int], k: int, rng) -> list[int]:
    """`rng.sample(population, k)`, draw for draw (so a seed deals what it always dealt)."""
    return draw_cards(population, k, rng)[0]


_SET_SIZES: dict[int, int] = {}  # by sample size k: the library's switch between a pool and a set
_POOL_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}  # by pool size n: each draw's last position and bits


def _set_size(k: int) -> int:
    size = _SET_SIZES.get(k)
    if size is None:
        size = _SET_SIZES[k] = 21 + (4 ** ceil(log(k * 3, 4)) if k > 5 else 0)
    return size


def _pool_steps(n: int) -> tuple[tuple[int, int], ...]:
    """For draws from a pool of n cards: the pool's last position before each draw and the bits
    drawn for it (the bit length of the pool's size), from n-1 down."""
    steps = _POOL_STEPS.get(n)
    if steps is None:
        steps = _POOL_STEPS[n] = tuple(zip(range(n - 1, -1, -1), map(int.bit_length, range(n, 0, -1))))
    return steps


def draw_cards(population: Sequence[int], k: int, rng) -> tuple[list[int], list[int]]:
    """The cards `rng.sample(population, k)` draws, draw for draw, with the library's per-card
    Python call to its random-below helper inlined; and the cards left (in no order)."""
    n = len(population)
    getrandbits = rng.getrandbits
    if n <= _set_size(k):
        # the library moves the last card of the pool into each gap; swapping the drawn card
        # there instead leaves the same pool to draw from, the draws at its end, last first
        pool = list(population)
        for last, bits in _pool_steps(n)[:k]:
            j = getrandbits(bits)
            while j > last:
                j = getrandbits(bits)
            pool[j], pool[last] = pool[last], pool[j]
        return pool[n - k:][::-1], pool[:n - k]
    bits = n.bit_length()
    picked: dict[int, None] = {}  # positions drawn, in draw order
    for _ in range(k):
        j = getrandbits(bits)
        while j >= n or j in picked:
            j = getrandbits(bits)
        picked[j] = None
    left = list(population)
    for j in sorted(picked, reverse=True):  # a few deletions, cheaper than filtering the whole population
        del left[j]
    return [population[j] for j in picked], left


def distinct(cards: list[int], unique: bool) -> list[int]:
    """The distinct cards of a list (a copy); `unique` says the deck has one copy of each."""
    return list(cards) if unique else list(dict.fromkeys(cards))


def cards_left(copies: Sequence[int], groups: Iterable[Sequence[int]]) -> list[int]:
    """For a deck with `copies` of each card: the copies of each card in none of the groups
    (hands...), negative when a card is dealt more often than the deck has it."""
    left = list(copies)
    for group in groups:
        for card in group:
            left[card] -= 1
    return left


def empty_by_suit(num_players: int, table: CardTable) -> list[list[list[int]]]:
    """Per seat, an empty list for each suit by suit index and a spare last one for cards
    without a suit (so `[NO_SUIT]` finds them), for `fill_by_suit`."""
    return [[[] for _ in range(len(table.suits) + 1)] for _ in range(num_players)]


def fill_by_suit(by_suit: list[list[list[int]]], hands: Iterable[Sequence[int]], suit_of: Sequence[int]) -> None:
    """Add each hand's cards, in hand order, to its seat's lists by suit. A round emptied
    the lists as it played the cards, so a state refills the same lists every round."""
    for split, hand in zip(by_suit, hands):
        for card in hand:
            split[suit_of[card]].append(card)


def count_cards(cards: Iterable[int], size: int) -> list[int]:
    counts = [0] * size
    for card in cards:
        counts[card] += 1
    return counts


def deal_hands(order: Sequence[int], num_players: int, hand_size: int, first_seat: int) -> list[Sequence[int]]:
    """Deal `hand_size` cards each from `order`, one at a time clockwise from `first_seat`;
    each hand is a slice of `order` (a list from a list, a tuple from a tuple)."""
    end = num_players * hand_size
    return [order[(seat - first_seat) % num_players:end:num_players] for seat in range(num_players)]


PASS_OFFSETS = {"left": 1, "right": -1, "across": 0, "hold": None}


def pass_target(seat: int, direction: str, num_players: int) -> int | None:
    """Who receives `seat`'s passed cards; None when the hand is a hold hand."""
    if direction == "across":
        return (seat + num_players // 2) % num_players
    offset = PASS_OFFSETS[direction]
    return None if offset is None else (seat + offset) % num_players


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: every hand, by seat (and any cards set aside)."""

    hands: tuple[tuple[int, ...], ...]
    aside: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseSeat:
    """Chance: the first dealer."""

    seat: int


class TrickState(TrickView, GameState):
    """A round of tricks: hands, the trick on the table, the leader, tricks won.

    Subclasses set `phase` and, in `apply`, check a card, note what it changes, move it
    from the hand to `trick` and pass the turn on; once every seat has played, the trick's
    winner takes it and leads, and the round ends when the hands are empty (written out in
    each engine: it is the hottest path of a simulation). They implement
    `play_options(seat)`, `trick_winner(cards)` (index into the trick) and `end_round`.
    Tuples held by a state (card tables, points) are never changed, so clones share them.
    Keep a state's attributes under 30: past that CPython 3.11 stops sharing instance
    dictionary keys and every attribute read slows."""

    PLAY = PLAY

    def __init__(self, game, num_players: int):
        self.game = game
        self.table: CardTable = game.table
        self.suit_of = game.table.suit  # read on every card played
        self.num_players = num_players
        self.phase = CHANCE
        self.round = 0  # 0-based round (hand) number
        self.dealer = 0
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.trick: list[int] = []
        self.leader = 0
        self.turn = 0
        self.trick_number = 0
        self.won = [0] * num_players
        self.voids = [0] * num_players  # by seat: the suits it has shown it lacks this round, a bit each
        # the chance action `sample_chance` last drew here: drawn from this state's deck for
        # these seats, it needs no checking when applied (applying a chance action clears it)
        self.sampled: Any = None

    # -- the play phase ---------------------------------------------------------------------
    def where(self, seat: int | None = None) -> dict:
        where: dict[str, Any] = {"round": self.round + 1}
        if self.phase == self.PLAY:
            where["trick"] = self.trick_number + 1
        if seat is not None:
            where["player"] = seat
        return where

    def check_in_hand(self, seat: int, card: int, rule: str) -> None:
        if card not in self.hands[seat]:
            raise IllegalAction(f"{self.player_name(seat)} plays {self.table.code[card]}, which is not in their hand", rule,
                                self.table.codes(self.play_options(seat)), self.where(seat))

    def trick_winner(self, cards: list[int]) -> int:
        raise NotImplementedError

    def play_options(self, seat: int) -> list[int]:
        raise NotImplementedError

    def end_round(self) -> None:
        raise NotImplementedError

    def current_player(self) -> int:
        return self.phase if self.phase < 0 else self.turn

    def is_terminal(self) -> bool:
        return self.phase == TERMINAL

    def clone(self) -> "TrickState":
        """An independent copy that shares the game, its card tables, tuples and the round
        records (never changed once written): only lists are copied, nested lists included.
        Search players clone at every iteration, so this is ten times cheaper than a deep copy."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if type(value) is list:
                setattr(other, name, _copy_lists(value))
        return other

    def void_suits(self, seat: int) -> int:
        """The suits the seat has shown it lacks this round (by not following them), one bit each."""
        return self.voids[seat]


def _copy_lists(items: list) -> list:
    """A copy of a list whose nested lists are copied too (other items are shared)."""
    if items and type(items[0]) is list:
        return [_copy_lists(item) if type(item) is list else item for item in items]
    return items[:]



# -- logs shared by the trick-taking games -------------------------------------------------------

_SPLIT = re.compile(r"[\s,;:]+")


def words(text_or_words: str | Sequence[str]) -> list[str]:
    """Split a question typed at the table into words: spaces, commas, colons all separate."""
    text = text_or_words if isinstance(text_or_words, str) else " ".join(text_or_words)
    return [word for word in _SPLIT.split(text) if word]


def read_hands(log: GameLog, entry: Entry, table: CardTable, num_players: int) -> tuple[tuple[int, ...], ...] | None:
    """A round's `hands` (player name -> card codes), by seat; None when the round gives none."""
    hands_entry = entry.table("hands", None)
    if hands_entry is None:
        return None
    hands: list[tuple[int, ...] | None] = [None] * num_players
    for name, codes in hands_entry.data.items():
        field = hands_entry.at(name)
        seat = log.seat(name, field)
        log.check_type(codes, list, field, "a hand (a list of card codes)")
        hands[seat] = tuple(table.by_id[log.card(code, f"{field}[{i}]").id] for i, code in enumerate(codes))
    missing = [log.players[seat] for seat, hand in enumerate(hands) if hand is None]
    if missing:
        raise log.error(hands_entry.field, f"no hand for {', '.join(missing)}",
                        hint="list every player's hand, or leave `hands` out and give the log a seed")
    return tuple(hands)  # type: ignore[arg-type]


def read_tricks(log: GameLog, entry: Entry, table: CardTable, state: TrickState, last_round: bool,
                lead_rule: str, first_lead_rule: str = "") -> Iterator[LogStep]:
    """The cards of `tricks`, in play order, one step per card; checks a trick's `lead` if named
    (against `first_lead_rule` for a round's first trick when the game has a rule of its own for it)."""
    tricks = entry.get("tricks", list, [])
    for trick_index, trick in enumerate(tricks):
        field = entry.at("tricks") + f"[{trick_index}]"
        lead_name = None
        if isinstance(trick, dict):
            trick_entry = Entry(log, trick, field)
            trick_entry.check_keys(("lead", "cards"))
            lead_name = trick_entry.get("lead", str, None)
            cards = trick_entry.get("cards", list)
            card_field = trick_entry.at("cards")
        else:
            cards = log.check_type(trick, list, field, "a trick (a list of card codes in play order)")
            card_field = field
        if state.phase != TrickState.PLAY:
            if state.phase == TERMINAL:
                return
            raise log.error(field, "a trick is listed before this round's bids (or choices) are complete")
        size = state.trick_size()
        if len(cards) > size:
            raise log.error(field, f"a trick has one card per player: {len(cards)} cards for "
                                   f"{size} players")
        if lead_name is not None:
            seat = log.seat(lead_name, f"{field}.lead")
            if seat != state.leader:
                rule = first_lead_rule if state.trick_number == 0 and first_lead_rule else lead_rule
                raise IllegalAction(f"{log.players[seat]} is named as leader, but {log.players[state.leader]} "
                                    f"leads trick {state.trick_number + 1}", rule, [f"lead = {log.players[state.leader]!r}"],
                                    where={**state.where(seat), "field": f"{field}.lead"})
        for card_index, code in enumerate(cards):
            where = f"{card_field}[{card_index}]"
            yield LogStep(table.by_id[log.card(code, where).id], where)
        if len(cards) < size and not (last_round and trick_index == len(tricks) - 1):
            raise log.error(field, f"this trick has {len(cards)} cards for {size} players; "
                                   "only the last trick of a log may be unfinished")
    if state.phase == TrickState.PLAY and not last_round:
        raise log.error(entry.at("tricks"), f"round {state.round + 1} lists {len(tricks)} tricks but is not over; "
                                            "only the last round of a log may be unfinished")



@dataclass
class TrickQuestion:
    """A trick typed at the table: settings (trump, shun...), the leader's name, and the cards
    in play order with the name of whoever played each (None when not said)."""

    settings: dict[str, str]
    lead: str | None
    cards: list[tuple[str | None, int]]

    def player(self, position: int) -> str:
        name = self.cards[position][0]
        if name:
            return name
        if self.lead:
            compass = [point for point in COMPASS if len(self.cards) <= len(COMPASS)]
            if self.lead.casefold() in compass:  # North, East, South, West: clockwise at a four-player table
                return COMPASS[(compass.index(self.lead.casefold()) + position) % len(COMPASS)].title()
            if position == 0:
                return self.lead
            return f"the player {position} seat(s) after {self.lead}"
        return f"the player of card {position + 1}"


COMPASS = ["north", "east", "south", "west"]


def parse_trick_question(question: Sequence[str], table: CardTable, setting_words: Sequence[str]) -> TrickQuestion:
    """Read `trick [trump X | no trump] [lead NAME] [NAME] CARD ...`; `setting_words` are the
    keywords that take a suit (e.g. trump, shun). Options may be spelt --trump, --lead."""
    tokens = words(question)
    if tokens and tokens[0].casefold() == "trick":
        tokens = tokens[1:]
    settings: dict[str, str] = {}
    lead = None
    cards: list[tuple[str | None, int]] = []
    pending_name = None
    position = 0
    while position < len(tokens):
        word = tokens[position]
        key = word.casefold().lstrip("-")
        following = tokens[position + 1] if position + 1 < len(tokens) else None
        if key == "no" and following and following.casefold().rstrip("s") in setting_words:
            settings[following.casefold().rstrip("s")] = "none"
            position += 2
            continue
        if key.rstrip("s") in setting_words and following is not None and table.index(word) is None:
            settings[key.rstrip("s")] = following
            position += 2
            continue
        if key in ("lead", "leads", "led", "leader"):
            if following and following.casefold() == "by":
                position += 1
                following = tokens[position + 1] if position + 1 < len(tokens) else None
            if following is None:
                raise DeckgenError("`lead` needs a player name, e.g. `lead North`")
            lead = following
            position += 2
            continue
        if key in ("by", "then", "and"):
            position += 1
            continue
        card = table.index(word)
        if card is not None:
            cards.append((pending_name, card))
            pending_name = None
        else:
            if pending_name is not None or following is None or table.index(following) is None:
                raise DeckgenError(f"{word!r} is not a card of deck {table.deck.id!r} and not followed by one "
                                   f"(codes look like {', '.join(table.code[:3])}; `deckgen show {table.deck.id}` lists them)")
            pending_name = word
        position += 1
    if not cards:
        raise DeckgenError("name the cards of the trick in play order, e.g. `trick 7H JE QS WZ`")
    counts = count_cards((card for _, card in cards), len(table.code))
    for card, count in enumerate(counts):
        if count > table.copies[card]:
            raise DeckgenError(f"the deck has {table.copies[card]} {table.name[card]} card(s), the trick lists {count}")
    if lead and cards[0][0] and cards[0][0].casefold() != lead.casefold():
        raise DeckgenError(f"{lead} is said to lead, but the first card is {cards[0][0]}'s")
    return TrickQuestion(settings, lead, cards)



@dataclass
class PlayQuestion:
    """"May I play this?": the card, the hand it comes from, the trick so far in play order,
    suit settings (trump, shun) and flags (first, broken); the rule that a player plays only
    cards they hold, for a card the hand does not hold."""

    card: int
    hand: list[int]
    trick: list[int]
    settings: dict[str, str]
    flags: set[str]
    own_cards_rule: str


PLAY_USAGE = "play CARD hand CARD CARD ... [trick CARD ...] [trump SUIT | no trump | shun SUIT] [first] [broken]"


def parse_play_question(question: Sequence[str], table: CardTable, setting_words: Sequence[str],
                        flag_words: Sequence[str], own_cards_rule: str) -> PlayQuestion:
    """Read `play CARD hand CARDS... [trick CARDS...]` with the game's settings and flags, in any
    order after the card. A card the hand leaves out is not held (`play_answer` says no)."""
    tokens = words(question)
    if tokens and tokens[0].casefold() == "play":
        tokens = tokens[1:]
    if not tokens or table.index(tokens[0]) is None:
        raise DeckgenError(f"say the card first: {PLAY_USAGE}")
    card = table.index(tokens[0])
    lists: dict[str, list[int]] = {"hand": [], "trick": []}
    settings: dict[str, str] = {}
    flags: set[str] = set()
    current: list[int] | None = None
    position = 1
    while position < len(tokens):
        word = tokens[position]
        key = word.casefold().lstrip("-")
        following = tokens[position + 1] if position + 1 < len(tokens) else None
        if key in lists:
            current = lists[key]
        elif key == "no" and following and following.casefold() in setting_words:
            settings[following.casefold()] = "none"
            position += 1
        elif key in setting_words and following is not None:
            settings[key] = following
            position += 1
            current = None
        elif key in flag_words:
            flags.add(key)
            current = None
        elif current is not None and table.index(word) is not None:
            current.append(table.index(word))
        else:
            raise DeckgenError(f"cannot read {word!r}: {PLAY_USAGE}")
        position += 1
    hand = lists["hand"]
    if not hand:
        raise DeckgenError(f"say the cards of the hand the card is played from: {PLAY_USAGE}")
    for what, cards in (("hand", hand), ("trick", lists["trick"]), ("hand and trick", hand + lists["trick"])):
        counts = count_cards(cards, len(table.code))
        for index, count in enumerate(counts):
            if count > table.copies[index]:
                raise DeckgenError(f"the deck has {table.copies[index]} {table.name[index]} card(s), "
                                   f"the {what} lists {count}")
    return PlayQuestion(card, hand, lists["trick"], settings, flags, own_cards_rule)


def play_answer(table: CardTable, asked: PlayQuestion, legal: Sequence[int], rule: str | Sequence[str], reason: str,
                rulings: Sequence[str] = ()) -> dict:
    """The answer to a play question: yes/no, the rule that decides it, and for no the legal cards."""
    code = table.code[asked.card]
    options = table.codes(table.sorted(set(legal)))
    if asked.card not in asked.hand:  # no rule of play matters for a card the player does not hold
        rule, reason, rulings = asked.own_cards_rule, f"the hand given ({' '.join(table.codes(asked.hand))}) does " \
                                                      f"not hold {code}, and a player plays only their own cards", ()
    allowed = asked.card in legal and asked.card in asked.hand
    answer = (f"Yes: {code} may be played: {reason}." if allowed else
              f"No: {code} may not be played: {reason}. Legal here: {', '.join(options)}.")
    return {"question": "play", "card": code, "hand": table.codes(asked.hand), "trick": table.codes(asked.trick),
            "allowed": allowed, "legal": options, "answer": answer,
            "reasons": [f"legal cards here: {', '.join(options)}"],
            "rules": [rule] if isinstance(rule, str) else list(rule), "rulings": list(rulings)}


def read_dealer(log: GameLog, entry: Entry, state: TrickState, index: int, rule: str) -> Iterator[LogStep]:
    """Round 1's `dealer` is the first-dealer chance action (drawn from the seed when left out);
    later rounds may name the dealer, which is checked against the rotation."""
    if index == 0:
        name = entry.get("dealer", str, None)
        yield LogStep(None if name is None else ChooseSeat(log.seat(name, entry.at("dealer"))), entry.at("dealer"))
    elif entry.has("dealer"):
        seat = log.seat(entry.get("dealer", str), entry.at("dealer"))
        if seat != state.dealer:
            raise IllegalAction(f"{log.players[seat]} is named as dealer, but the deal passes to "
                                f"{log.players[state.dealer]}", rule, [f"dealer = {log.players[state.dealer]!r}"],
                                where={"round": index + 1, "player": seat, "field": entry.at("dealer")})


def log_played_card(round_log: dict, state: "TrickState", code: str) -> None:
    """Write a card about to be played into the round's `tricks` list; a card played to an
    empty trick opens a new one."""
    tricks = round_log.setdefault("tricks", [])
    if not state.trick:
        tricks.append([])
    tricks[-1].append(code)
