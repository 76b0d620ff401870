"""Quidditch v2: the legal actions at one moment of a game, for the decision the state asks
(a mixin of `QuidditchV2State`, which holds the moment), and the manoeuvres made once."""

from __future__ import annotations

import itertools

from .quidditch_v2_cards import (ACCBEAT, ACCEPT, BLAG, COINS, CRACK, DECLINE, PASS, POWBEAT, ROLLS, SAVED, SKIP,
                                 SUREHAND, Destroy, FirstPlayer, Pick, RandomPick, Reveal, discard_of, draw_of,
                                 manoeuvre_of, play_of)
from .quidditch_v2_steps import MAX_PLAYERS

# The manoeuvres, made once (shared values, as `manoeuvre_of` gives them), by target seat.
SCORE_AT = tuple(manoeuvre_of("score", seat) for seat in range(MAX_PLAYERS))
BLUDGER_AT = tuple(manoeuvre_of("bludger", seat) for seat in range(MAX_PLAYERS))
RANDOM_BLUDGER_AT = tuple(manoeuvre_of("bludger", seat, True) for seat in range(MAX_PLAYERS))
OUTFLY_AT = tuple(manoeuvre_of("outfly", seat) for seat in range(MAX_PLAYERS))
SNATCH = manoeuvre_of("snatch")
PICKS = tuple(Pick(seat) for seat in range(MAX_PLAYERS))
SEARCH = manoeuvre_of("search")


class LegalActions:
    """What the seat (or chance) asked to decide may answer, in a fixed order."""

    def _legal_for(self, frame: tuple) -> tuple:
        kind, actor, args = frame[1], frame[2], frame[3:]
        if kind == "draw":
            return tuple(map(draw_of, sorted(self.draw)))
        if kind == "roll":
            return tuple(ROLLS.values())
        if kind == "coin":
            return (COINS[True], COINS[False])
        if kind == "first":
            return tuple(FirstPlayer(seat) for seat in range(self.num_players))
        if kind == "random_discard":
            return tuple(RandomPick(card) for card in sorted(self.hands[args[0]]))
        if kind == "play":
            return self._play_options(actor)
        if kind == "manoeuvre":
            return (*self._manoeuvre_options(actor), SKIP)
        if kind == "discard":
            return tuple(map(discard_of, self._discardable(actor, args[0])))
        if kind == "saved":
            return (play_of(SAVED), DECLINE)
        if kind == "pass":
            return (play_of(PASS), DECLINE)
        if kind == "blag":
            return (*(play_of(BLAG, other) for other in self.opponents(actor)), DECLINE)
        if kind == "block":
            mine = args[1]
            return (*(discard_of(card) for card in self._discardable(actor, "broom")
                      if self.game.facts[card].speed > mine), DECLINE)
        if kind in ("penalty_save", "quiet", "captain"):
            return (ACCEPT, DECLINE)
        if kind == "rain_pick":
            return (*PICKS[:self.num_players], DECLINE)
        if kind == "penalty_to":
            return tuple(PICKS[seat] for seat in self.opponents(actor))
        if kind == "end":
            return (*(Destroy(t.uid) for t in self._own_toughs(actor)), DECLINE)
        if kind == "reveal":
            hand = self.hands[actor]
            seekers = sorted(card for card in hand if card in self.game.seekers)
            options = []
            for counts in itertools.product(*(range(hand[card] + 1) for card in seekers)):
                options.append(Reveal(tuple(card for card, k in zip(seekers, counts) for _ in range(k))))
            return tuple(options)
        raise AssertionError(f"unknown decision {kind}")

    def _manoeuvre_options(self, seat: int) -> list:
        dom = self.dom
        mine = dom[seat]
        if mine < 1:
            return []
        options: list = []
        opponents = self.opponent_seats[seat]
        facts = self.game.facts
        holder = self.quaffle
        # The seat's working Things, in one pass over the table rather than one `has` per card.
        flyhigh = self.flyhigh
        blank = flyhigh.thing if flyhigh is not None and flyhigh.owner == holder else None
        working = {t.card for t in self.table if t.owner == seat and t.uid != blank}
        if holder == seat:
            margin = facts[CRACK].props.get("score_margin", 3) if CRACK in working else self.params["score_margin"]
            if mine >= 2 and all(mine - dom[other] >= margin for other in opponents):
                options.extend(SCORE_AT[other] for other in opponents)
        if not self.no_bludger:
            normal = self.params["bludger_margin"]
            accurate = facts[ACCBEAT].props.get("bludger_margin", 2) if ACCBEAT in working else None
            powerful = POWBEAT in working
            for other in opponents:
                lead = mine - dom[other]
                if lead >= normal:
                    if powerful:
                        options.append(RANDOM_BLUDGER_AT[other])
                    if not powerful or accurate is not None:
                        options.append(BLUDGER_AT[other])
                elif accurate is not None and lead >= accurate:
                    options.append(BLUDGER_AT[other])
        if holder is None:
            options.append(SNATCH)
        elif holder != seat:
            need = facts[SUREHAND].props.get("snatch_margin", 2) if self.has(holder, SUREHAND) else 1
            if mine - dom[holder] >= need:
                options.append(SNATCH)
        options.extend(OUTFLY_AT[other] for other in opponents)
        if self.own_turns[seat] > self.feint_lock[seat]:  # not `locked_out`
            options.append(SEARCH)
        return options
