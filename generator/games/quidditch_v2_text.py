"""Quidditch v2: explaining a refused action (the rule, the ruling, the legal choices) and
reading and writing actions as logs do. A mixin of `QuidditchV2State`.
"""

from __future__ import annotations

from .base import CHANCE, IllegalAction
from .quidditch_v2_cards import (ACCBEAT, ACCEPT, BLAG, CRACK, DECLINE, DOPPLE, END, FLYHIGH, OPPONENT_ACTIONS,
                                 OPPONENT_THINGS, PASS, POWBEAT, RESPONSES, SAVED, SNITCH, STUNNED, SUREHAND, WRONSKI,
                                 Accept, Coin, Decline, Destroy, Discard, Draw, EndPlays, FirstPlayer, InPlay,
                                 Manoeuvre, Pick, Play, RandomPick, Reveal, Roll)
from .quidditch_v2_steps import ACTION_WORDS, EXPECTED, STEP_RULES, decision_rule, decision_words, one_word


class ActionText:
    """Why an action is refused, and actions as logs write them. Mixed into the state."""

    # -- explaining an illegal action --------------------------------------------------------

    def _illegal(self, action) -> IllegalAction:
        frame = self.stack[-1]
        actor = frame[2]
        legal = [self.format_action(a) for a in self.legal_actions()]
        try:
            text = self.format_action(action)
        except (KeyError, AttributeError, TypeError, IndexError):
            text = repr(action)
        message, rule, ruling = self._why_illegal(action, frame)
        who = "chance" if actor == CHANCE else self.label(actor)
        where = self.where()
        if actor == CHANCE:  # nobody erred at the table: the turn is named, not a player
            where.pop("player", None)
        else:  # whoever gave the wrong answer, even out of turn
            where["player"] = actor
        return IllegalAction(f"{who}: {text!r} is not allowed here: {message}", rule, legal, where, ruling)

    def _why_illegal(self, action, frame: tuple) -> tuple[str, str, str]:
        """(message, rule id or card:<id>, ruling id or "") for an action not in the legal list."""
        kind, actor, args = frame[1], frame[2], frame[3:]
        facts = self.game.facts
        expected = EXPECTED[kind]
        if isinstance(action, Play) and kind != "play" and actor == self.active and action.card not in RESPONSES:
            # A play written after the play step: say why the card could not be played then.
            message, rule, ruling = self._why_play_illegal(action, actor)
            if not rule.startswith("card:" + action.card):
                return message, rule, ruling
            return "cards are played before the manoeuvre step, and that step is over", "qv2.turn.order", ""
        if not isinstance(action, expected):
            wanted = " or ".join(f"`{ACTION_WORDS[t]}`" for t in expected)  # the verbs that answer it
            return f"the game is waiting for {decision_words(self.stack)} ({wanted})", decision_rule(self.stack), ""
        if kind == "draw":
            if action.card == SNITCH and self.reshuffles == 0:
                return ("the Golden Snitch lies in the discard pile until the first reshuffle", "qv2.setup.snitch",
                        "qv2.ruling.snitch-discard-pile")
            return f"{self._code(action.card)} is not in the draw pile", "qv2.turn.draw", ""
        if kind == "random_discard":
            return f"{self._code(action.card)} is not in {self.label(args[0])}'s hand", "card:" + POWBEAT, ""
        if kind in ("roll", "coin", "first"):
            return "no such outcome", STEP_RULES[kind], ""
        if kind == "play":
            return self._why_play_illegal(action, actor)
        if kind == "manoeuvre":
            return self._why_manoeuvre_illegal(action, actor)
        if kind == "discard":
            which, rule = args
            if not self.hands[actor].get(action.card):
                return f"{self.label(actor)} holds no {self._code(action.card)}", rule, ""
            return f"only {which} cards can be discarded here", rule, ""
        if kind == "reveal":
            return "only Seeker cards from the player's own hand can be shown", "qv2.snitch.seekers", ""
        if kind == "blag":
            if isinstance(action, Play) and action.card == BLAG:
                return "Blagging must target an opponent", "qv2.cards.targets", ""
            return "only Blagging can be played at this moment", "qv2.response.blagging", "qv2.ruling.blagging-any-time"
        if kind in ("saved", "pass"):
            card = SAVED if kind == "saved" else PASS
            return f"only {facts[card].name} answers this", STEP_RULES[kind], "qv2.ruling.responses"
        if kind == "block":
            return ("only a broomstick from hand faster than the player's own can stop it", "card:blistering-speed",
                    "qv2.ruling.blistering-speed")
        if kind == "penalty_to":
            return "the penalty goal goes to an opponent", "qv2.cards.targets", "qv2.ruling.penalty-receiver"
        if kind == "end":
            return "only your own Playing Tough may be destroyed now", "card:playing-tough", ""
        return "not one of the choices", STEP_RULES.get(kind, "qv2.turn.order"), ""

    def _why_play_illegal(self, action, seat: int) -> tuple[str, str, str]:
        card = action.card
        facts = self.game.facts.get(card)
        if facts is None or not self.hands[seat].get(card):
            return f"{self.label(seat)} holds no {self._code(card)}", "qv2.turn.plays", ""
        rule_card = "card:" + card
        if facts.kind == "seeker":
            return ("Seeker cards are never played, only shown for the Snitch", "qv2.snitch.seekers",
                    "qv2.ruling.seeker-cards")
        if card in RESPONSES:
            return f"{facts.name} is played only in answer to its event", "qv2.response.general", "qv2.ruling.responses"
        if facts.kind == "thing" and self.thing_played:
            return "one Thing a turn, and one has been played", "qv2.turn.plays", ""
        if facts.kind == "action" and self.action_played:
            return "one Action a turn, and one has been played", "qv2.turn.plays", ""
        if card == SNITCH and self.locked_out(seat):
            return "Wronski Feint forbids playing the Snitch for now", "card:" + WRONSKI, "qv2.ruling.wronski"
        if card in OPPONENT_ACTIONS or card in OPPONENT_THINGS or card == DOPPLE:
            if action.player is None or action.player == seat or not 0 <= action.player < self.num_players:
                ruling = "qv2.ruling.wronski" if card == WRONSKI else ""
                return f"{facts.name} needs an opponent as target", "qv2.cards.targets", ruling
        if card == DOPPLE:
            hand = self.hands[seat]
            if action.cost is None or not hand.get(action.cost) or (action.cost == DOPPLE and hand[DOPPLE] < 2):
                return "another card from hand must be discarded to play it", rule_card, "qv2.ruling.dopplebeater"
        if card == FLYHIGH:
            return "choose another Thing in play (not the Quaffle)", rule_card, "qv2.ruling.flying-high"
        if card == STUNNED:
            return "choose a Player card in play", rule_card, "qv2.ruling.stunned"
        return "wrong target or extra choices for this card", rule_card, ""

    def _why_manoeuvre_illegal(self, action: Manoeuvre, seat: int) -> tuple[str, str, str]:
        kind, target = action.kind, action.target
        dom = self.dom
        thresholds = "qv2.ruling.thresholds"
        if kind not in ("score", "bludger", "snatch", "outfly", "search"):
            return f"no manoeuvre called {kind!r}", "qv2.manoeuvre.general", ""
        if dom[seat] < 1:
            return "a manoeuvre costs 1 dominance and there is none to pay", "qv2.manoeuvre.general", thresholds
        if kind in ("score", "bludger", "outfly") and (target is None or target == seat
                                                       or not 0 <= target < self.num_players):
            return f"{kind} needs an opponent as target", "qv2.cards.targets", ""
        if kind == "score":
            if self.quaffle != seat:
                return "only the player controlling the Quaffle can score", "qv2.manoeuvre.score", thresholds
            margin = "3" if self.has(seat, CRACK) else str(self.params["score_margin"])
            return (f"dominance must be at least {margin} above every opponent's", "qv2.manoeuvre.score", thresholds)
        if kind == "bludger":
            if self.no_bludger:
                return "Dopplebeater Defence was played this turn", "card:" + DOPPLE, ""
            powerful, accurate = self.has(seat, POWBEAT), self.has(seat, ACCBEAT)
            lead = dom[seat] - dom[target]
            if action.random and not powerful:
                return "a random discard needs Powerful Beater", "card:" + POWBEAT, "qv2.ruling.beaters"
            if action.random and accurate and lead < self.params["bludger_margin"]:
                return ("Accurate Beater's lower requirement cannot be combined with Powerful Beater",
                        "card:" + ACCBEAT, "qv2.ruling.beaters")
            if not action.random and powerful and not accurate:
                return "with Powerful Beater the discard is random", "card:" + POWBEAT, "qv2.ruling.beaters"
            return "dominance must be far enough above the target's", "qv2.manoeuvre.bludger", thresholds
        if kind == "snatch":
            if self.quaffle == seat:
                return "you already control the Quaffle", "qv2.manoeuvre.snatch", ""
            if self.quaffle is not None and self.has(self.quaffle, SUREHAND):
                return "the holder's Sure-handed Chaser needs a lead of 2", "card:" + SUREHAND, thresholds
            return "dominance must be higher than the holder's", "qv2.manoeuvre.snatch", thresholds
        if kind == "search":
            return "Wronski Feint forbids Search for now", "card:" + WRONSKI, "qv2.ruling.wronski"
        return "not one of the choices", "qv2.manoeuvre.general", ""

    # -- text form of actions ----------------------------------------------------------------

    def _code(self, card: str) -> str:
        facts = self.game.facts.get(card)
        return facts.code if facts else str(card)

    def thing_name(self, thing: InPlay) -> str:
        """`P2:TOUGH`, or `P2:TOUGH#2` when the controller has more than one in play."""
        same = [t.uid for t in self.table if t.owner == thing.owner and t.card == thing.card]
        name = f"{self.label(thing.owner)}:{self._code(thing.card)}"
        return name + (f"#{same.index(thing.uid) + 1}" if len(same) > 1 else "")

    def format_action(self, action) -> str:
        code = self._code
        if isinstance(action, Draw):
            frame = self.stack[-1] if self.stack else ()
            if len(frame) > 4 and frame[1] == "draw" and frame[4] == "reveal":
                return f"turn {code(action.card)}"
            if len(frame) > 3 and frame[1] == "draw":
                return f"draw {code(action.card)} to {self.label(frame[3])}"
            return f"draw {code(action.card)}"
        if isinstance(action, Roll):
            return f"roll {action.value}"
        if isinstance(action, Coin):
            return "coin heads" if action.heads else "coin tails"
        if isinstance(action, FirstPlayer):
            return f"first {self.label(action.seat)}"
        if isinstance(action, RandomPick):
            return f"random {code(action.card)}"
        if isinstance(action, Play):
            words = ["play", code(action.card)]
            if action.player is not None:
                words.append(self.label(action.player))
            if action.thing is not None:
                thing = self.thing(action.thing)
                words.append(self.thing_name(thing) if thing else f"#{action.thing}")
            if action.cost is not None:
                words += ["discarding", code(action.cost)]
            return " ".join(words)
        if isinstance(action, EndPlays):
            return "end"
        if isinstance(action, Manoeuvre):
            words = [action.kind]
            if action.target is not None:
                words.append(self.label(action.target))
            if action.random:
                words.append("random")
            return " ".join(words)
        if isinstance(action, Discard):
            return f"discard {code(action.card)}"
        if isinstance(action, Accept):
            return "accept"
        if isinstance(action, Decline):
            return "decline"
        if isinstance(action, Pick):
            return f"pick {self.label(action.seat)}"
        if isinstance(action, Destroy):
            thing = self.thing(action.thing)
            return "destroy " + (self.thing_name(thing) if thing else f"#{action.thing}")
        if isinstance(action, Reveal):
            return "reveal " + (" ".join(code(card) for card in action.cards) or "none")
        raise TypeError(f"not a quidditch-v2 action: {action!r}")

    def parse_action(self, text: str):
        words = text.split()
        if not words:
            raise ValueError("empty action")
        verb, rest = words[0].lower(), words[1:]
        if verb in ("draw", "turn"):
            if not rest:
                raise ValueError(f"{verb} needs a card")
            card = self._card(rest[0])
            if verb == "draw" and len(rest) == 3 and rest[1].lower() == "to":
                frame = self.stack[-1] if self.stack else ()
                seat = self._seat(rest[2])
                if len(frame) > 3 and frame[1] == "draw" and frame[3] != seat:
                    raise IllegalAction(f"the card is drawn by {self.label(frame[3])}, not {rest[2]}",
                                        "qv2.turn.draw", [self.format_action(a) for a in self.legal_actions()],
                                        self.where())
            elif len(rest) != 1:
                raise ValueError(f"expected '{verb} CODE'")
            return Draw(card)
        if verb == "roll":
            value = one_word(rest, "roll N")
            if not value.isdigit():
                raise ValueError("a roll is a number")
            return Roll(int(value))
        if verb == "coin":
            side = one_word(rest, "coin heads|tails").lower()
            if side not in ("heads", "tails"):
                raise ValueError("a coin lands heads or tails")
            return Coin(side == "heads")
        if verb == "first":
            return FirstPlayer(self._seat(one_word(rest, "first Pn")))
        if verb == "random":
            return RandomPick(self._card(one_word(rest, "random CODE")))
        if verb == "play":
            return self._parse_play(rest)
        if verb == "end" and not rest:
            return END
        if verb in ("score", "bludger", "outfly"):
            if not rest or len(rest) > 2 or (len(rest) == 2 and (verb != "bludger" or rest[1].lower() != "random")):
                raise ValueError(f"expected '{verb} Pn'" + (" [random]" if verb == "bludger" else ""))
            return Manoeuvre(verb, self._seat(rest[0]), random=len(rest) == 2)
        if verb in ("snatch", "search", "skip") and not rest:
            return Manoeuvre(verb)
        if verb == "discard":
            return Discard(self._card(one_word(rest, "discard CODE")))
        if verb == "accept" and not rest:
            return ACCEPT
        if verb == "decline" and not rest:
            return DECLINE
        if verb == "pick":
            return Pick(self._seat(one_word(rest, "pick Pn")))
        if verb == "destroy":
            return Destroy(self._thing_ref(one_word(rest, "destroy Pn:CODE")))
        if verb == "reveal":
            if rest == ["none"]:
                return Reveal(())
            if not rest:
                raise ValueError("expected 'reveal CODE...' or 'reveal none'")
            return Reveal(tuple(sorted(self._card(word) for word in rest)))
        raise ValueError(f"unknown action {text!r}")

    def _parse_play(self, words: list[str]) -> Play:
        if not words:
            raise ValueError("play needs a card")
        card = self._card(words[0])
        player = thing = cost = None
        rest = words[1:]
        if len(rest) >= 2 and rest[-2].lower() == "discarding":
            cost = self._card(rest[-1])
            rest = rest[:-2]
        if len(rest) > 1:
            raise ValueError("expected 'play CODE [Pn | Pn:CODE] [discarding CODE]'")
        if rest:
            if ":" in rest[0]:
                thing = self._thing_ref(rest[0])
            else:
                player = self._seat(rest[0])
        return Play(card, player, thing, cost)

    def _card(self, ref: str) -> str:
        card = self.game.deck.find_card(ref)
        if card is None:
            raise ValueError(f"no card {ref!r} in this deck")
        return card.id

    def _seat(self, ref: str) -> int:
        """A player written as their log name (any case) or as P1..Pn."""
        folded = ref.casefold()
        for seat, name in enumerate(self.player_names):
            if name.casefold() == folded:
                return seat
        if len(ref) >= 2 and ref[0] in "pP" and ref[1:].isdigit() and 1 <= int(ref[1:]) <= self.num_players:
            return int(ref[1:]) - 1
        names = ", ".join(self.player_names) if self.player_names else f"P1..P{self.num_players}"
        raise ValueError(f"no player {ref!r}; the players are {names}")

    def _thing_ref(self, ref: str) -> int:
        owner_text, _, card_text = ref.partition(":")
        card_text, _, index_text = card_text.partition("#")
        owner, card = self._seat(owner_text), self._card(card_text)
        matches = [t for t in self.table if t.owner == owner and t.card == card]
        index = int(index_text) - 1 if index_text.isdigit() else 0
        if not 0 <= index < len(matches):
            raise IllegalAction(f"there is no {ref} in play", "qv2.cards.targets",
                                [self.format_action(a) for a in self.legal_actions()], self.where())
        return matches[index].uid
