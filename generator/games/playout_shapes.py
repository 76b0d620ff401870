"""Which rules the compiled playouts implement: a rules-engine game's [rules] read against the two
shapes of `generator.games._playout`, and the extension's parameters taken from them.

The extension plays Wizard's shape and Wizard Hearts' shape; what varies inside a shape (the
deck, its roles, the bidding restriction, the passing table, the points of each card, the
target) is read from the rules, and anything outside it leaves the game to the Python engine.
Conditions and scores are compared as expression trees after the parameters are folded in, so
the same rule written another way plays in Python, never differently.
"""

from __future__ import annotations

from ..deck.trickrules.compile import fold
from ..deck.trickrules.expr import parse
from ..deck.trickrules.selectors import select
from .tricks import NO_SUIT
from .trick.game import RulesGame

TURNED_WIZARD = -3  # the extension's mark of a turned card that lets the dealer name trump

# The bidding restrictions the extension knows (its codes), as `forbid` conditions.
RESTRICTIONS = {
    1: "last and ahead and bid > 0 and bids_before + bid == hand",  # every round
    2: "last and final_round and ahead and bid > 0 and bids_before + bid == hand",
    3: "last and bids_before + bid == hand",  # never even
}
WIZARD_SCORE = "if(tricks == bid, 20 + 10 * tricks, -10 * abs(tricks - bid))"


def plain(tree: tuple) -> tuple:
    """A tree without the columns its names and calls were written at, for comparing."""
    kind = tree[0]
    if kind == "name":
        return ("name", tree[1])
    if kind == "call":
        return ("call", tree[1], tuple(plain(arg) for arg in tree[2]))
    if kind == "unary":
        return ("unary", tree[1], plain(tree[2]))
    if kind in ("and", "or"):
        return (kind, plain(tree[1]), plain(tree[2]))
    if kind == "binary":
        return ("binary", tree[1], plain(tree[2]), plain(tree[3]))
    return tree


def _same(tree: tuple | None, text: str, params) -> bool:
    return tree is not None and plain(fold(tree, params)) == plain(fold(parse(text), {}))


def _shaped_deal(rules) -> bool:
    """The deal and trump the extension plays: dealt one card at a time to everyone, the deal
    passing left, no stock to draw from, no card above the trumps and no "no trump" named."""
    deal = rules.deal
    return (deal.rotation == 1 and not deal.packets and deal.leftover != "stock" and deal.dealer_sits_out is None
            and not rules.trump.top and not rules.trump.may_name_none)


def _plain_table(game) -> bool:
    """No round suit, passing, points, teams, restrictions or must-trump; the first lead from
    the dealer's left; the leftover set aside."""
    rules = game.rules
    play = rules.play
    return (_shaped_deal(rules) and rules.round_suit is None and rules.passing is None and not game.has_points
            and rules.teams == "none"
            and not play.restrictions and not play.must_trump and not play.must_overtake
            and play.first_lead.by == "left-of-dealer" and rules.deal.leftover == "set-aside")


def _counts(game):
    return range(game.min_players, game.max_players + 1)


def wizard_shape(game) -> tuple[str, tuple] | None:
    """Wizard's shape: round r deals r cards; a card turned for trump; cards without a suit that
    always win (first among equals, a turned one lets the dealer choose) or always lose (a turned
    one means no trump), playable at any time; bids 0 to the hand; the exact-bid score."""
    if type(game) is not RulesGame:
        return None
    rules, table, params = game.rules, game.table, game.params
    if not _plain_table(game) or rules.trump.kind != "turn-up" or game.bidding is None:
        return None
    if rules.always_wins is None or rules.always_loses is None or rules.end.target is not None:
        return None
    if rules.always_wins.among_equals != "first" or rules.always_loses.among_equals != "first":
        return None
    wins, loses = select(rules.always_wins.cards, game.deck), select(rules.always_loses.cards, game.deck)
    suitless = {card for card in range(len(table.code)) if table.suit[card] == NO_SUIT}
    any_time = {card for card in range(len(table.code)) if game.any_time[card]}
    if wins != game.dealer_chooses or loses != game.no_trump or wins | loses != suitless or any_time != suitless:
        return None
    for players in _counts(game):
        rounds = game.num_rounds(players)
        for number in range(1, (rounds or 0) + 1):
            env = {"hand": number, "round": number, "players": players}
            if game.hand(players, number) != number or game.bidding.low(env) != 0 or game.bidding.high(env) != number:
                return None
    restriction = _restriction(game)
    if restriction is None or rules.end.winner != "highest" or not _same(rules.scoring.round, WIZARD_SCORE, params):
        return None
    if rules.scoring.lets or rules.scoring.carries or rules.scoring.by != "player":
        return None
    tie_break = fold(rules.end.tie_break, params) if rules.end.tie_break else None
    if tie_break is not None and tie_break[0] not in ("int", "bool") and not _same(tie_break, "total_bids", {}):
        return None
    turned_trump = tuple(TURNED_WIZARD if card in wins else NO_SUIT if card in loses else table.suit[card]
                         for card in range(len(table.code)))
    return "wizard", (restriction, tie_break is not None and tie_break[0] == "name", tuple(table.physical),
                      table.suit, table.rank, turned_trump)


def _restriction(game) -> int | None:
    """The extension's code of the bidding restriction (0: none), or None for another."""
    spec = game.rules.bidding
    if spec.style != "open":
        return 0  # hidden and delayed bids have no last bidder, so no restriction binds
    active = [forbid for forbid in spec.forbids if fold(forbid.when, game.params) != ("bool", False)]
    if not active:
        return 0
    if len(active) > 1:
        return None
    return next((code for code, text in RESTRICTIONS.items() if _same(active[0].when, text, game.params)), None)


def hearts_shape(game) -> tuple[str, tuple] | None:
    """Wizard Hearts' shape: a round suit revealed skipping one suit; the whole deck dealt evenly;
    no trump; passing; the holder of a lead card of the skipped suit leads it (else the lowest of
    its suit); no round-suit card nor one other card on the first trick; optionally the round suit
    led only once broken; card points by round suit; a target score, the lowest total winning."""
    if type(game) is not RulesGame:
        return None
    rules, table, params = game.rules, game.table, game.params
    spec = rules.round_suit
    if spec is None or len(spec.skip) != 1 or rules.trump.kind != "none" or game.bidding is not None \
            or not _shaped_deal(rules):
        return None
    if rules.always_wins or rules.always_loses or any(game.any_time) or rules.teams != "none":
        return None
    if rules.passing is None or rules.passing.optional or rules.play.must_trump or rules.play.must_overtake:
        return None
    lead = rules.play.first_lead
    skip = spec.skip[0]
    if lead.by != "holder" or lead.otherwise != "lowest-of-suit" or table.suit[lead.card] != skip:
        return None
    if NO_SUIT in table.suit or rules.end.target is None or rules.end.max_rounds is None or rules.end.rounds:
        return None
    if rules.end.winner != "lowest" or rules.end.tie_break or not _same(rules.scoring.round, "points", params):
        return None
    if rules.scoring.lets or rules.scoring.carries or rules.scoring.by != "player":
        return None
    for players in _counts(game):
        if any(game.hand(players, number) != table.total // players for number in range(1, game.max_rounds + 1)):
            return None
    broken = _hearts_restrictions(game)
    if broken is None:
        return None
    suits = range(game.num_suits)
    queen, points = [], []
    for suit in suits:
        if suit == skip:
            queen.append(-1)
            points.append(())
            continue
        tables = game.round_tables[NO_SUIT, suit]
        others = [card for card in tables.restricted[0] if table.suit[card] != suit]
        own = {card for card in range(len(table.code)) if table.suit[card] == suit}
        if len(others) != 1 or tables.restricted[0] - set(others) != own:
            return None
        if broken and not (tables.restricted[1] == own == tables.breaks[1]):
            return None
        queen.append(others[0])
        points.append(tables.points)
    return "hearts", (skip, lead.card, rules.passing.count, rules.passing.directions, broken, tuple(table.physical),
                      table.suit, table.rank, tuple(queen), tuple(points))


def _hearts_restrictions(game) -> bool | None:
    """Whether the round suit must be broken (the second restriction), or None for other restrictions."""
    restrictions = game.rules.play.restrictions
    first = restrictions[0] if restrictions else None
    if first is None or (first.to, first.trick, first.until_broken) != ("follow", "first", False):
        return None
    if len(restrictions) == 1:
        return False
    second = restrictions[1]
    if len(restrictions) > 2 or (second.to, second.trick, second.until_broken) != ("lead", "any", True):
        return None
    return True
