"""Questions at the table, settled without a game log (`deckgen rule DECK ...`): the protocol
every engine answers in.

An engine lists its questions in `Game.questions`, each a `Question`: the word that starts it,
what it asks (one of `ASKS`: may I play this, who wins this trick, what does this score, is
this bid allowed; or something of the game's own), how to ask it and an example. `ask` picks
the question by its first word and calls its `answer(game, words)` with every word the user
gave, the question word included. An answer is plain data:

- `"answer"`: one sentence for the terminal; `"reasons"`: the steps that led there;
- `"rules"` and `"rulings"`: the deck's rule and ruling ids that decide it (`card:<id>` when
  a card's text decides), printed with their text;
- by what the question asks: `"allowed"` (true or false) for `play` and `bid`, `"winner"`
  (`{"position": 1-based, "player", "card"}`) for `trick`, `"points"` for `score`.

The referee checks figures of play in rule text through the same questions
(`generator.games.play_figures`), and the conformance suite asks every example.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from ..core.errors import DeckgenError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

    from .base import Game

# What a question asks, and the key its answer must carry.
ASKS: dict[str, tuple[str, str | None]] = {
    "play": ("may I play this", "allowed"),
    "trick": ("who wins this trick", "winner"),
    "score": ("what does this score", "points"),
    "bid": ("is this bid allowed", "allowed"),
    "other": ("a question of the game's own", None),
}


@dataclass(frozen=True)
class Question:
    """One kind of question an engine answers."""

    word: str  # the first word of the question: "trick", "play", "bid", "goal"
    asks: str  # a key of ASKS
    usage: str  # how to ask it, the word first: "bid N round R [after B B ...]"
    summary: str  # what the answer says, in a line
    example: str  # a question this engine answers for its shipped or sample deck
    answer: Callable[["Game", Sequence[str]], dict]
    aliases: tuple[str, ...] = ()  # other first words that ask the same
    # Asked when the first word names no question (a bare list of cards is a trick).
    default: bool = False

    def __post_init__(self) -> None:
        if self.asks not in ASKS:
            raise ValueError(f"question {self.word!r} asks {self.asks!r}; one of {', '.join(ASKS)}")


def first_word(words: Sequence[str]) -> str:
    """The word a question starts with, as written (`--trump` and `trick,` read as `trump`, `trick`)."""
    parts = [part for part in re.split(r"[\s,;:]+", " ".join(words)) if part]
    return parts[0].lstrip("-").casefold() if parts else ""


def find(game: "Game", word: str) -> Question | None:
    """The engine's question that starts with `word` (or one of its aliases)."""
    return next((q for q in game.questions if word == q.word or word in q.aliases), None)


def ask(game: "Game", words: Sequence[str]) -> dict[str, Any]:
    """Answer one question; a question the engine cannot read raises DeckgenError saying how to ask."""
    if not game.questions:
        raise DeckgenError(f"the {game.id} engine answers no questions at the table; referee a log instead")
    question = find(game, first_word(words)) or next((q for q in game.questions if q.default), None)
    if question is None:
        usages = "; or ".join(f"`{q.usage}`" for q in game.questions)
        raise DeckgenError(f"the {game.id} engine answers {len(game.questions)} question(s): ask {usages}")
    answer = question.answer(game, words)
    answer.setdefault("question", question.word)
    return answer


def listing(game: "Game") -> list[dict[str, str]]:
    """The engine's questions as data: word, what it asks, usage, summary, example."""
    return [{"question": q.word, "asks": q.asks, "usage": q.usage, "summary": q.summary, "example": q.example}
            for q in game.questions]


def listing_text(game: "Game", deck_id: str) -> str:
    """The engine's questions for the terminal, each with a command that asks its example."""
    if not game.questions:
        return f"the {game.id} engine answers no questions at the table; referee a log instead"
    lines = [f"{deck_id} ({game.id} engine) answers:"]
    for q in game.questions:
        lines += ["", f"  {q.usage}", f"    {q.summary}", f"    e.g.  deckgen rule {deck_id} {q.example}"]
    return "\n".join(lines)
