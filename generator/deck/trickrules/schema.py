"""The structure of a deck's `[rules]` table as JSON Schema: field names, types and choices,
with a description of each for editors (`deckgen schema`). What the values mean (cards that
exist, expressions that read known counts, deals that fit the deck) is checked by
`generator.deck.trickrules.read`. docs/rules-language.md explains every field."""

from __future__ import annotations

from typing import Any

# A field that takes a parameter of [engine] ("$name") where it takes a fixed value.
PARAM_PATTERN = r"^\$[A-Za-z_][A-Za-z0-9_]*$"


def _text(description: str, **extra: Any) -> dict:
    return {"type": "string", "description": description, "maxLength": 2000, **extra}


def _choice(description: str, choices: list[str]) -> dict:
    """One of `choices`, or a parameter; the reader checks a parameter's value against them."""
    return {"type": "string", "description": f"{description} One of: {', '.join(choices)}; or $parameter.",
            "maxLength": 64}


def _number(description: str) -> dict:
    return {"type": ["integer", "string"],
            "description": f"{description} A whole number or an expression in quotes."}


def _flag(description: str) -> dict:
    return {"type": ["boolean", "string"], "description": f"{description} true, false or $parameter."}


def _rule(description: str) -> dict:
    return _text(f"{description} (a rule id of [[sections.rules]]).", maxLength=64)


def _ruling(description: str) -> dict:
    return _text(f"{description} (a ruling id of [[rulings]]).", maxLength=64)


def _table(description: str, properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "description": description, "properties": properties,
            "required": list(required), "additionalProperties": False}


_SELECTOR = _text("Cards, written as `key:value` terms: card:ID, kind:ID, suit:ID, rank:ID; "
                  "suit:trump, suit:opposite-trump, suit:round, suit:opposite-round; spaces join terms (all must hold), "
                  "commas join alternatives (any may hold); `none` selects no card.")

ROLE = _table("Cards with a role in every trick.", {
    "cards": _SELECTOR,
    "among_equals": _choice("Which of several such cards in one trick counts.", ["first", "last"]),
    "lead_rule": _rule("The rule about a trick this card leads"),
    "lead_ruling": _ruling("The ruling about a card of this role after a lead that set no suit"),
}, ("cards",))

RESTRICTION = _table("Cards that may not be played at some moment while other playable cards are held.", {
    "to": _choice("Whether it binds the lead, the cards that follow, or both.", ["lead", "follow", "any"]),
    "trick": _choice("Which tricks of a round it binds.", ["first", "later", "any"]),
    "cards": _SELECTOR,
    "name": {"type": ["string", "array"], "items": {"type": "string", "maxLength": 200},
             "description": "How a message calls such a card, e.g. 'a Shun card'; or a list, one name per "
                            "alternative of `cards`."},
    "until_broken": _flag("Lifted once a card it names (or of `breaks`) has been played this round."),
    "breaks": _SELECTOR,
    "when": _text("An expression over the parameters: the restriction holds only when it is true."),
    "rule": _rule("The rule cited"),
    "ruling": _ruling("A ruling cited with it"),
    "message": _text("What the referee says: {player}, {card} and {name} are filled in."),
    "explain": _text("How `deckgen rule` explains it: {reason} (why the other cards may be played), {name} and "
                     "{cards:N} (the cards of the N-th alternative of `cards`) are filled in."),
}, ("cards",))

FORBID = _table("A bid that may not be made.", {
    "id": _text("A name for the restriction, in `deckgen rule` answers.", maxLength=64),
    "when": _text("An expression, true for a forbidden bid (names: bid, hand, bids_before, last, ahead, ...)."),
    "why": _text("How `deckgen rule` says why such a bid is not allowed: {bid}, {hand} and the numbers the "
                    "expression reads are filled in."),
    "rule": _rule("The rule cited"),
    "ruling": _ruling("A ruling cited with it"),
    "message": _text("What the referee says: {bid}, {hand}, {player} and every number the expression "
                     "may read are filled in."),
}, ("when",))

POINTS = _table("Points a card is worth to the player who catches it in a trick.", {
    "cards": _SELECTOR,
    "points": _number("Its points (an expression over the parameters)."),
}, ("cards", "points"))

RULES = _table("The rules of a trick-taking game, which deckgen referees, plays and checks (docs/rules-language.md).", {
    "rule": _rule("The rule cited wherever the table names no rule of its own"),
    "choices": {"type": "object", "additionalProperties": {"type": "array"},
                "description": "For a parameter of [engine] (its name): the values it may take."},
    "players": _table("How many play.", {"min": {"type": "integer", "minimum": 2, "maximum": 12},
                                         "max": {"type": "integer", "minimum": 2, "maximum": 12}}, ("min", "max")),
    "round_name": _text("What a deal and its tricks are called: round, hand, deal.", maxLength=32),
    "teams": _choice("Partnerships.", ["none", "partners"]),
    "deal": _table("Dealing.", {
        "hand": _number("Cards dealt to each player in round `round` (names: round, players, cards)."),
        "last_round_deals_all": _flag("The last round deals every card, so the deck must divide by every "
                                      "player count (`deckgen validate` checks it)."),
        "first_dealer": _choice("How the first dealer is found.", ["any", "high-card", "first-seat"]),
        "leftover": _choice("What happens to undealt cards: set aside, taken by the first trick's winner, or a "
                            "stock every player draws from after each trick, the winner first.",
                            ["set-aside", "first-trick", "stock"]),
        "turned_in_stock": _choice("Where a card turned for trump lies in the stock: on top (the first trick's "
                                   "winner draws it) or at the bottom (the last card drawn).", ["top", "bottom"]),
        "dealer_sits_out": _flag("Whether the dealer sits the round out, dealt no cards; a condition on players "
                                 "and round (\"players == 5\") is allowed too."),
        "rotation": _choice("Who deals the next round: the player on the dealer's left (clockwise) or right.",
                            ["left", "right"]),
        "packets": {"type": "array", "items": {"type": ["integer", "array"], "items": {"type": "integer"}},
                    "description": "The deal in packets: one entry per lap round the table, from the dealer's "
                                   "left; a number (every seat gets that many at once) or a list of numbers taken "
                                   "seat by seat, cycling ([[3, 2], [2, 3]]: 3-2 then 2-3)."},
        "leftover_name": _text("What the undealt cards are called in messages, e.g. 'the Cauldron'.", maxLength=64),
        "leftover_key": _text("Their key in a game log's round.", maxLength=32, pattern=r"^[a-z_]+$"),
        "rule": _rule("The rule on dealing"),
        "dealer_rule": _rule("The rule on who deals next"),
        "first_dealer_rule": _rule("The rule on the first dealer"),
        "deck_rule": _rule("The rule listing the deck"),
    }, ("hand",)),
    "round_suit": _table("A suit revealed before each deal that the scoring or play reads as suit:round.", {
        "name": _text("What it is called, e.g. 'Shun suit'.", maxLength=64),
        "key": _text("Its key in a game log's round.", maxLength=32, pattern=r"^[a-z_]+$"),
        "skip": {"type": ["array", "string"], "items": {"type": "string"},
                 "description": "Suits never revealed: turning one, the dealer turns again."},
        "cards": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 2000},
                  "description": "Cards the round suit decides, by a name of yours (opposite_queen = \"rank:queen "
                                 "suit:opposite-round\"): `deckgen rule` shows them, explanations say {name}."},
        "rule": _rule("The rule on revealing it"),
    }, ("name",)),
    "trump": _table("The trump suit of each round.", {
        "kind": _choice("Where trump comes from.", ["none", "fixed", "turn-up", "dealer-card", "highest-bidder"]),
        "suit": _text("The trump suit of kind = fixed (a suit id or $parameter).", maxLength=64),
        "no_trump": _SELECTOR,
        "dealer_chooses": _SELECTOR,
        "may_name_none": _flag("Whoever names trump (the dealer after a turned card, the highest bidder) may "
                               "name no trump."),
        "top": {"type": "array", "items": _SELECTOR,
                "description": "Cards that join the trump suit and rank above all its other cards, highest first "
                               "(Euchre's bowers: [\"rank:jack suit:trump\", \"rank:jack suit:opposite-trump\"])."},
        "rule": _rule("The rule on trump"),
        "choose_ruling": _ruling("The ruling on the dealer's (or the highest bidder's) choice"),
    }, ("kind",)),
    "cards": _table("Cards with special roles.", {
        "always_wins": ROLE,
        "always_loses": ROLE,
        "any_time": _SELECTOR,
    }),
    "play": _table("Leading and following.", {
        "first_lead": _table("Who leads the first trick of a round.", {
            "by": _choice("Who leads.", ["left-of-dealer", "dealer", "holder"]),
            "card": _text("With by = holder: the card its holder leads (an id, code or $parameter).", maxLength=64),
            "otherwise": _choice("When that card is not dealt.", ["lowest-of-suit"]),
            "rule": _rule("The rule on the first lead"),
            "ruling": _ruling("The ruling for a first-lead card that was not dealt"),
        }, ("by",)),
        "must_trump": _flag("A player who cannot follow suit must play a trump if they hold one."),
        "must_overtake": _flag("A player must beat the best card in the trick when they can."),
        "restrict": {"type": "array", "items": RESTRICTION, "description": "Restrictions, applied in order."},
        "lead_rule": _rule("The rule on leading"),
        "follow_rule": _rule("The rule on following suit"),
        "follow_ruling": _ruling("A ruling cited when a card is refused for not following suit"),
        "void_ruling": _ruling("A ruling cited when a player who cannot follow plays any card"),
        "own_cards_rule": _rule("The rule that a card played must be held"),
        "winner_rule": _rule("The rule on who wins a trick"),
        "trump_rule": _rule("The rule of must_trump / must_overtake"),
    }, ()),
    "passing": _table("Cards passed after the deal.", {
        "count": _number("Cards each player passes."),
        "directions": {"type": ["object", "string"], "description": "By player count (\"4\" = [...]): the "
                       "direction of each round in turn, cycling: left, right, across, hold; or $parameter."},
        "optional": _flag("Whether a player may pass fewer cards (down to none)."),
        "rule": _rule("The rule on passing"),
        "ruling": _ruling("A ruling cited with it"),
    }, ("count", "directions")),
    "bidding": _table("Every player bids the tricks they will take.", {
        "min": _number("The lowest bid."),
        "max": _number("The highest bid (names: hand, round, players)."),
        "style": _choice("How bids are made; only an open bid has a last bidder.", ["open", "hidden", "delayed"]),
        "rule": _rule("The rule on bidding"),
        "unrestricted_rule": _rule("The rule cited when no forbid entry is in force (a variant turned them off)"),
        "forbid": {"type": "array", "items": FORBID, "description": "Bids that may not be made."},
    }, ("max",)),
    "points": {"type": "array", "items": POINTS, "description": "Points cards are worth when caught."},
    "scoring": _table("What each round scores.", {
        "by": _choice("Who scores.", ["player", "team"]),
        "round": _text("An expression: the points scored this round."),
        "let": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 1000},
                "description": "Named expressions, in order, that later ones may read."},
        "carry": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 1000},
                  "description": "Counts kept from round to round (starting at 0): their new values."},
        "rule": _rule("The rule on scoring"),
    }, ("round",)),
    "explain": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 2000},
                "description": "How `deckgen rule` words its answers, by situation (always_wins, always_loses, trump, "
                               "led, lead, first_lead, first_lead_otherwise, open, no_suit, follow, void); "
                               "docs/rules-language.md lists the placeholders."},
    "end": _table("When the game ends and who wins.", {
        "rounds": _number("The number of rounds (names: players, cards)."),
        "target": _number("The game ends after a round in which a score reaches this."),
        "max_rounds": _number("A safety stop: the game ends after this many rounds."),
        "winner": _choice("Who wins.", ["highest", "lowest"]),
        "tie_break": _text("An expression per player; among tied winners the highest value wins."),
        "rule": _rule("The rule on the end"),
    }, ("winner",)),
}, ("deal", "play", "scoring", "end"))
