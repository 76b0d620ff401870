"""What a rules-engine game says about itself: the decision it waits for (`pending`, with its
rule), the round-by-round record the referee prints (`summary`) and the counters of the
step-through replay (`view_counters`), in the words of the deck's rules (its round name,
its round suit's name)."""

from __future__ import annotations

from ..base import CHANCE, TERMINAL, Pending
from ..tricks import NO_SUIT, PLAY, pass_target
from .actions import BIDDING, CHOOSE_TRUMP, PASSING
from .moves import play_options


def pending(state) -> Pending | None:
    phase, name = state.phase, state.player_name
    if phase == TERMINAL:
        return None
    rules = state.game.rules
    noun, number = rules.round_name, state.round + 1
    if phase == CHANCE:
        dealer = name(state.dealer)
        if state.chance == "dealer":
            what = ("the draw for the first dealer" if rules.deal.first_dealer == "high-card"
                    else "the choice of the first dealer")
            return Pending(CHANCE, what, rules.deal.first_dealer_rule)
        if state.chance == "deal":
            return Pending(CHANCE, f"the deal of {noun} {number} by {dealer}", rules.deal.rule)
        if state.chance == "turn":
            return Pending(CHANCE, f"the card {dealer} turns for trump", rules.trump.rule)
        return Pending(CHANCE, f"the {rules.round_suit.name} {dealer} reveals for {noun} {number}", rules.round_suit.rule)
    if phase == CHOOSE_TRUMP and rules.trump.kind == "highest-bidder":
        return Pending(state.turn, f"{name(state.turn)}, the highest bidder, names the trump suit", rules.trump.rule)
    if phase == CHOOSE_TRUMP:
        turned = state.table.name[state.info.turned]
        return Pending(state.dealer, f"{name(state.dealer)}, the dealer, names the trump suit (a {turned} was turned)",
                       rules.trump.rule)
    seat = state.turn
    if phase == BIDDING:
        return Pending(seat, f"{name(seat)}'s bid for {noun} {number}", state.game.bidding.pending_rule(state))
    if phase == PASSING:
        left = rules.passing.count - len(state.info.passed[seat])
        target = name(pass_target(seat, state.direction, state.num_players))
        return Pending(seat, f"{name(seat)} to pass {left} more {'card' if left == 1 else 'cards'} to {target} "
                             f"({len(state.info.passed[seat])} passed so far)", rules.passing.rule)
    what = "lead" if not state.trick else "play"
    return Pending(seat, f"{name(seat)} to {what} a card to trick {state.trick_number + 1} of {noun} {number}",
                   play_options(state, seat).rule)


def _suit_name(state, suit: int) -> str:
    return "none" if suit == NO_SUIT else state.game.deck.suits[suit].name


def _suit_id(state, suit: int) -> str | None:
    return None if suit == NO_SUIT else state.game.deck.suits[suit].id


def summary(state) -> dict:
    game, rules = state.game, state.game.rules
    code = state.table.code
    noun = rules.round_name.capitalize()
    turned_kind = rules.trump.kind in ("turn-up", "dealer-card")
    rounds = []
    for number, entry in enumerate(state.history, start=1):
        record = {"round": number, "dealer": entry["dealer"]}
        title = f"{noun} {number}: dealer {state.player_name(entry['dealer'])}"
        if turned_kind:
            record["turned"] = code[entry["turned"]] if entry["turned"] is not None else None
            title += f", turned {code[entry['turned']]}" if entry["turned"] is not None else ""
        if rules.trump.kind != "none":
            record["trump"] = _suit_id(state, entry["trump"])
            title += f", trump {_suit_name(state, entry['trump'])}"
        if rules.round_suit:
            record[rules.round_suit.key] = _suit_id(state, entry["round_suit"])
            title += f", {rules.round_suit.name} {_suit_name(state, entry['round_suit'])}"
        if rules.passing:
            record["passing"] = entry["direction"]
            title += f", passing {entry['direction']}"
        columns = {"bid": entry["bids"]} if game.bidding is not None else {}
        columns["tricks"] = entry["won"]
        for name, values in entry.get("carried", {}).items():
            columns[name] = values
        columns.update(points=entry["points"], total=entry["totals"])
        rounds.append({**record, "title": title, "columns": columns})
    if state.phase in (CHOOSE_TRUMP, PASSING, BIDDING, PLAY) or (state.phase == CHANCE and state.chance == "turn"):
        title = f"{noun} {state.round + 1} (unfinished): dealer {state.player_name(state.dealer)}"
        if rules.trump.kind != "none":
            title += f", trump {_suit_name(state, state.trump)}"
        if rules.round_suit:
            title += f", {rules.round_suit.name} {_suit_name(state, state.info.round_suit)}"
        columns = {"bid": list(state.bids)} if game.bidding is not None else {}
        columns["tricks"] = list(state.won)
        if game.has_points:
            columns["points"] = list(state.hand_points)
        columns["total"] = list(state.totals)
        rounds.append({"round": state.round + 1, "dealer": state.dealer, "in_progress": True,
                       "title": f"{title}, {state.trick_number} trick(s) played", "columns": columns})
    result = {"scores": list(state.totals), "rounds": rounds}
    if state.rounds_total is not None:
        result["rounds_total"] = state.rounds_total
    return result


def view_counters(state) -> dict:
    """The round's own counters; while a new round is set up, what it has not settled shows "-"
    (not the last round's trump, bids or points)."""
    game, rules, info = state.game, state.game.rules, state.info
    setting_up = state.setting_up()
    named_after_bids = rules.trump.kind == "highest-bidder"
    # trump and bids still to come (a trump the highest bidder names comes after the bids)
    unsettled = setting_up or (state.phase == CHOOSE_TRUMP and not named_after_bids)
    trump_open = unsettled or named_after_bids and state.phase in (PASSING, BIDDING, CHOOSE_TRUMP)
    counters = {}
    if rules.trump.kind in ("turn-up", "dealer-card"):
        counters["Turned"] = "-" if info.turned is None else state.table.code[info.turned]
    if rules.trump.kind != "none":
        counters["Trump"] = "-" if trump_open else _suit_name(state, state.trump)
    if rules.round_suit:
        unrevealed = setting_up and state.chance not in ("deal", "turn") or info.round_suit == NO_SUIT
        counters[rules.round_suit.name] = "-" if unrevealed else _suit_name(state, info.round_suit)
    if rules.passing:
        counters["Passing"] = state.history[-1]["direction"] if state.between_rounds() else state.direction
        counters["Cards passed"] = "-" if setting_up else " / ".join(str(len(cards)) for cards in info.passed)
    if game.stock:
        name = rules.deal.leftover_name.removeprefix("the ")
        counters[name[:1].upper() + name[1:]] = "-" if setting_up else str(len(info.stock))
    if game.bidding is not None:
        counters["Bids"] = "-" if unsettled else " / ".join("-" if bid is None else str(bid) for bid in state.bids)
    if game.has_points:
        counters["Hand points"] = "-" if setting_up else " / ".join(map(str, state.hand_points))
    return counters
