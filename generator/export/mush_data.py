"""What the MUSH game table knows about its deck: the attributes the softcode export stores.

`table_data` gathers, from the deck and its engine's parameters, what the table's code needs
beyond the cards (who may sit, what a game's opening deal is, which card is the Quaffle, the
Shun suit's exception...); `deck_attributes` turns deck, cards and rules into the data
attributes; `help_text` is what ``+deckhelp`` shows. The code itself is in
``templates/mush/table*.mushcode.j2`` and is put together by `mush_table`.

Limits a card must keep to reach every player whole (a MUSH output line is at most 8000
bytes in TinyMUX 2.12, its LBUF): `check_card_sizes` names the card and the limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..deck.markup import to_plain
from ..deck.trickrules.read import read_rules
from ..deck.trickrules.selectors import select
from .common import is_dvorak
from .setup import TableSetup

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

# A card's name appears in every list of a hand, the centre and the journal: a hand of 30
# cards must fit in one output line.
MAX_CARD_NAME = 100
# Label, text and flavour of one card are shown together by +card and +draw.
MAX_CARD_BYTES = 6000
# Card codes are the journal's words (``play Alice 7H``) and the game log's.
_CODE = re.compile(r"^[A-Za-z0-9_.#:+-]{1,24}$")

# Attributes other tables in the same room read (see FN.PUBLIC in the template); marked visual.
PUBLIC_ATTRIBUTES = ("DECKGEN.TABLE", "TABLEBASE")


@dataclass(frozen=True)
class TableData:
    """The game-specific facts the table's code is written for (template variables)."""

    game: str  # the deck's engine id, or "" for a deck without one
    counters: tuple[str, ...]
    trick_game: bool
    turns_up_trump: bool
    shun: bool  # Wizard Hearts: the Shun suit is turned up before each hand
    team_swap: bool  # Muggle Quidditch: a team member played replaces the one of the same role

    def template_context(self) -> dict:
        return {"game": self.game, "counters": self.counters, "trick_game": self.trick_game,
                "turns_up_trump": self.turns_up_trump, "shun": self.shun, "team_swap": self.team_swap}


def trick_rules(deck: "Deck"):
    """The deck's [rules] as the rules engine reads them for its parameters (None without them)."""
    if not deck.trick_rules:
        return None
    return read_rules(deck.trick_rules, deck, deck.params)[0]


def table_data(deck: "Deck", setup: TableSetup) -> TableData:
    game = deck.engine or ""
    rules = trick_rules(deck)
    return TableData(game=game, counters=setup.counters, trick_game=setup.trick_game,
                     turns_up_trump=setup.turns_up_trump,
                     shun=bool(rules and rules.round_suit), team_swap=game == "muggle-quidditch")


def card_label(card: "Card") -> str:
    """``Name (Type line, corner)``: what every list on the table shows for a card."""
    details = ", ".join(part for part in (card.type_line, card.corner) if part)
    return f"{card.name} ({details})" if details else card.name


def table_base_name(deck: "Deck") -> str:
    """The word players name the table by (``+sit wizard``): the deck id, lower case."""
    return re.sub(r"[^a-z0-9-]+", "-", deck.id.lower()).strip("-") or "table"


def check_card_sizes(deck: "Deck", cards: list["Card"]) -> None:
    """Refuse a card whose name, code or text could not reach the players whole."""
    if len(deck.name) > MAX_CARD_NAME:
        raise ValueError(f"deck {deck.id!r}: its name is {len(deck.name)} characters; a MUSH table shows it in "
                         f"every message, so at most {MAX_CARD_NAME}")
    for card in cards:
        owner = f"card {card.name[:40]!r}{'...' if len(card.name) > 40 else ''} ({card.code})"
        if len(card.name) > MAX_CARD_NAME:
            raise ValueError(f"{owner}: its name is {len(card.name)} characters; a MUSH table lists whole hands "
                             f"on one line, so a card name may have at most {MAX_CARD_NAME}")
        if not _CODE.match(card.code):
            raise ValueError(f"{owner}: its code {card.code!r} must be 1 to 24 letters, digits or _.#:+- "
                             "(the table's journal and the game log write cards by code)")
        size = sum(len(part.encode()) for part in (card_label(card), card.text, card.flavor))
        if size > MAX_CARD_BYTES:
            raise ValueError(f"{owner}: its name, type line, text and flavour come to {size} bytes; a MUSH shows "
                             f"a card in one message of at most 8000 bytes, so at most {MAX_CARD_BYTES}")


def _setup_numbers(copies: list["Card"], setup_cards: tuple["Card", ...]) -> list[int]:
    """The copy number of the first copy of each setup card."""
    return [next(number for number, card in enumerate(copies, start=1) if card is wanted) for wanted in setup_cards]


def _numbers(copies: list["Card"], wanted) -> str:
    return " ".join(str(number) for number, card in enumerate(copies, start=1) if wanted(card))


def _rule_number(deck: "Deck", rule_id: str) -> str:
    return next((rule.number for rule in deck.rules() if rule.id == rule_id), "")


def game_attributes(deck: "Deck", copies: list["Card"]) -> list[tuple[str, str]]:
    """What one game's own moves need: the opening hand, the balls, houses, the Shun exception."""
    params = deck.params
    game = deck.engine or ""
    attributes: list[tuple[str, str]] = []
    if game in ("quidditch-v2", "muggle-quidditch"):
        attributes += [("HANDSIZE", str(params.get("hand_size", 5))), ("GOALPOINTS", str(params.get("goal_points", 10))),
                       ("SNITCHPOINTS", str(params.get("snitch_points", 150)))]
    if game == "quidditch-v2":
        attributes += [("QUAFFLES", _numbers(copies, lambda card: card.props.get("ball") == "quaffle")),
                       ("SNITCHES", _numbers(copies, lambda card: card.props.get("ball") == "snitch")),
                       ("FIXED", _numbers(copies, lambda card: card.props.get("ball") == "quaffle")),
                       ("FIXED.RULE", _rule_number(deck, "qv2.cards.destroy")),
                       ("SEARCH", str(params.get("search_reveal", 5)))]
    if game == "muggle-quidditch":
        houses = params.get("houses", {})  # a malformed value is validate's to report, not this export's
        attributes += [(f"HOUSENAME.{suit}", house) for suit, house in houses.items()] if isinstance(houses, dict) else []
    rules = trick_rules(deck)
    if rules:  # a [rules] trick game: the turned cards that let the dealer name trump, the round suit's skips
        chooses = {deck.cards[index].code for index in select(rules.trump.dealer_chooses, deck)}
        attributes.append(("TRUMP.CHOOSE", _numbers(copies, lambda card: card.code in chooses)))
        if rules.round_suit:
            attributes.append(("SHUN.SKIP", " ".join(deck.suits[suit].id for suit in rules.round_suit.skip)))
    attributes.append(("SUITS", " ".join(suit.id for suit in deck.suits)))
    attributes += [(f"SUITNAME.{suit.id}", suit.name) for suit in deck.suits]
    return attributes


def rules_attributes(deck: "Deck") -> list[tuple[str, str]]:
    """The rulebook for +rules: an index, and one topic per section and per rule."""
    sections = tuple(getattr(deck, "sections", ()))
    if not sections:
        return [("TOPICCOUNT", "0"), ("RULES.INDEX", f"The {deck.name} deck carries no rules.")]
    topics: list[tuple[str, str, str, str]] = []  # number, id, title, text
    index = [f"Rules of {deck.name}. Type +rules and a number (+rules {sections[0].number}) "
             "or words of a title to read one."]
    for section in sections:
        rules = "\n".join(f"  {rule.number} {rule.title}" for rule in section.rules)
        intro = to_plain(section.text, deck) if section.text else ""
        topics.append((section.number, section.id, section.title,
                       "\n".join(part for part in (intro, rules) if part) or "(no rules)"))
        topics += [(rule.number, rule.id, rule.title, to_plain(rule.text, deck)) for rule in section.rules]
        index.append(f"{section.number} {section.title}: " + ", ".join(
            f"{rule.number} {rule.title}" for rule in section.rules))
    attributes = [("TOPICCOUNT", str(len(topics))), ("RULES.INDEX", "\n".join(index))]
    for number, (rule_number, rule_id, title, text) in enumerate(topics, start=1):
        attributes += [(f"TOPIC.{number}.NUM", rule_number), (f"TOPIC.{number}.ID", rule_id),
                       (f"TOPIC.{number}.TITLE", title), (f"TOPIC.{number}.TEXT", text)]
    return attributes


def deck_attributes(deck: "Deck", copies: list["Card"], setup: TableSetup) -> list[tuple[str, str]]:
    """Every data attribute of the table: the deck, its cards, its game and its rules."""
    centre = _setup_numbers(copies, setup.centre)
    discard = _setup_numbers(copies, setup.discard)
    rest = [number for number in range(1, len(copies) + 1) if number not in centre + discard]
    attributes = [("DECKGEN.TABLE", "1"), ("TABLEBASE", table_base_name(deck)),
                  ("DECKNAME", deck.name), ("COUNT", str(len(copies))),
                  ("MINSEATS", str(deck.min_players)), ("MAXSEATS", str(deck.max_players)),
                  ("CARDS", " ".join(map(str, range(1, len(copies) + 1)))),
                  ("COUNTERS", " ".join(setup.counters)), ("LOGN", "0"),
                  ("SETUP.CENTRE", " ".join(map(str, centre))), ("SETUP.DISCARD", " ".join(map(str, discard))),
                  ("SETUP.REST", " ".join(map(str, rest))),
                  ("ACTIONS", " ".join(str(number) for number, card in enumerate(copies, start=1)
                                       if is_dvorak(deck) and card.kind == "action")),
                  ("HELP", help_text(deck, setup))]
    attributes += game_attributes(deck, copies)
    attributes += rules_attributes(deck)
    for number, card in enumerate(copies, start=1):
        for field, value in (("NAME", card.name), ("CODE", card.code), ("KIND", card.kind or ""),
                             ("SUIT", getattr(card, "suit", None) or ""), ("LABEL", card_label(card)),
                             ("TEXT", card.text), ("FLAVOR", card.flavor)):
            if value:
                attributes.append((f"CARD.{number}.{field}", value))
    return attributes


def help_text(deck: "Deck", setup: TableSetup) -> str:
    game = deck.engine or ""
    counters = "\n".join(f"  {f'+{name} <n>':<24} set your {name}: 3 sets it, +2 adds, -1 takes away"
                         for name in setup.counters)
    play_to = ("to the centre (a trick)" if setup.trick_game else
               "to your team (a player of the same role leaves it)" if game == "muggle-quidditch" else
               "face up in front of you (an Action: onto the discard pile)" if is_dvorak(deck)
               else "face up in front of you")
    players = (f"{deck.min_players}" if deck.min_players == deck.max_players
               else f"{deck.min_players}-{deck.max_players}")
    lines = [
        f"The {deck.name} table ({players} players). Cards are named by number, code or name.",
        "  +sit / +stand            take a seat before the game starts / leave (during a game your seat waits)",
        "  +start                   start the game: the seats close and newcomers watch",
        "  +admit <player>          agree that a newcomer takes the empty seat of a player who left",
        "  +table                   the cards in play, the piles, who played what, every player's counters",
        "  +rules [topic]           the rules: the list, or one section or rule by number or title",
        "  +hand / +card <card>     your hand (only you see it) / read a card you can see",
        "  +draw                    draw the top card of the draw pile",
        f"  +play <card>             play a card from your hand {play_to}",
        "  +play/centre <card>      play a card from your hand to the centre of the table",
        "  +take <card>             take a card you played back into your hand",
        "  +discard <card>          discard a card from your hand or from your cards in play",
        "  +destroy <card>          destroy a card in play: it goes to the discard pile",
        "  +give <card>=<player>    give a card from your hand to another player",
        "  +deal <n> / +reveal      deal n cards to each player / show your hand to the room",
        "  +shuffle                 shuffle the discard pile into the draw pile",
    ]
    rules = trick_rules(deck)
    if setup.trick_game and rules and rules.round_suit:
        lines.append("  +round                   a new hand: turn up the Shun suit, shuffle, deal every card")
    elif setup.trick_game:
        lines.append("  +round <n>               a new round: shuffle every card, deal n to each player"
                     + (", turn up trump" if setup.turns_up_trump else ""))
    if setup.turns_up_trump:
        lines.append("  +trump <suit>            the dealer names trump when the turned card has no suit")
    if setup.trick_game:
        lines += ["  +trick / +tricks         take the trick in the centre into your pile / see your pile"]
    if game == "quidditch-v2":
        lines += ["  +quaffle                 take control of the Quaffle (+quaffle/centre: back to the centre)",
                  "  +roll / +flip            roll a die / flip a coin, in front of everyone",
                  "  +search                  turn up the top cards of the draw pile (Search)"]
    if game == "muggle-quidditch":
        lines += ["  +house <suit>            lead a house: its suit is your house suit",
                  "  +draw/discard            take the top card of the discard pile as your first draw",
                  "  +putback <card>          put a card you drew too many back on top of the draw pile",
                  "  +goal <card> <card>      score a pair onto your score pile",
                  "  +bludger <jack> <target> a Bludger at an opposing team member (+lose: its player's choice)",
                  "  +spot / +dive <joker>    spot the Snitch / start the dive (+turnup, +catch, +escape)",
                  "  +pass                    pass (only with an empty hand)"]
    lines += [counters,
              "  +log [page]              the game's journal, once the game is over",
              "  +reset                   end the game (the owner, or more than half of the players)",
              "With several tables here, name one first: +table <name> or +sit <name>."]
    setup_cards = [f"{card.name} face up in the centre" for card in setup.centre]
    setup_cards += [f"{card.name} first on the discard pile" for card in setup.discard]
    if setup_cards:
        lines.append("Each new game starts as the rules say: " + ", ".join(setup_cards) + ".")
    return "\n".join(line for line in lines if line)
