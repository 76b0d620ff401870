"""HTML and Markdown rulebooks, rendered from Jinja2 templates a designer may replace.

A template sees plain data only (strings, numbers, lists, dicts: no deck
objects, paths or functions) and runs in Jinja's immutable sandbox, loading
other templates only from its own folder. Deck text reaches it already
escaped for the format where it carries markup; every other string is
escaped on output (HTML autoescape, or Markdown escaping), so a deck cannot
inject markup into the page.
"""

from __future__ import annotations

import base64
import functools
import multiprocessing
import os
import re
from pathlib import Path
from typing import Callable

from jinja2 import BaseLoader, StrictUndefined, TemplateError, TemplateNotFound
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from ..core.cachefile import template_code
from ..core.errors import OptionError, UnreadableInput
from ..core.files import RefusedInput, read_text_input
from ..core.resources import TEMPLATES
from ..core.typography import smarten
from ..deck.model import Card
from .book import Appendix, Book, CardEntry, Chapter, ComponentRow, Heading, RulingLink, VariantEntry
from .text import FigureImage, HtmlWriter, IconSource, MarkdownWriter, md_attribute, md_escape

TEMPLATE_DIR = TEMPLATES / "rulebook"
TEMPLATE_NAMES = {"html": "rulebook.html.j2", "md": "rulebook.md.j2"}


def choose_templates(formats: tuple[str, ...], template: Path | None) -> dict[str, Path]:
    """The template file for each of the HTML/Markdown formats asked for: the designer's where
    `template` provides one (a file named for its format, or a folder holding rulebook.html.j2
    and/or rulebook.md.j2), the shipped one otherwise. Checked before anything is written."""
    wanted = [fmt for fmt in formats if fmt in TEMPLATE_NAMES]
    chosen = {fmt: TEMPLATE_DIR / TEMPLATE_NAMES[fmt] for fmt in wanted}
    if template is None:
        return chosen
    if template.is_dir():
        own = {fmt: template / name for fmt, name in TEMPLATE_NAMES.items() if (template / name).is_file()}
        if not own:
            raise OptionError(f"--template {template}: the folder holds neither "
                              f"{' nor '.join(TEMPLATE_NAMES.values())}")
    elif template.is_file():
        own = {template_format(template): template}
    else:
        raise OptionError(f"--template {template}: no such file or folder")
    if not set(own) & set(wanted):
        raise OptionError(f"--template {template} is a {' and '.join(sorted(own))} template, "
                          f"but the formats asked for are {', '.join(formats)}")
    return chosen | {fmt: path for fmt, path in own.items() if fmt in wanted}


def template_format(template: Path) -> str:
    """html or md, from a template file's name (`*.html.j2`, `*.md`, ...)."""
    suffixes = [suffix.lower() for suffix in template.suffixes]
    for fmt, names in (("html", {".html", ".htm"}), ("md", {".md", ".markdown"})):
        if names & set(suffixes):
            return fmt
    raise OptionError(f"--template {template}: cannot tell the format from the file name; "
                      "name it like rulebook.html.j2 or rulebook.md.j2")


class _FolderLoader(BaseLoader):
    """Templates read through deckgen's opener, only files really inside the template's folder:
    no `..`, no symbolic links leading out, no FIFO (which would wait for ever), nothing huge."""

    def __init__(self, root: Path):
        self.root = root

    def get_source(self, environment, name):
        path = self.root.joinpath(*split_template_path(name))  # refuses `..`
        try:
            source = read_text_input(path, "template", within=self.root)
            stamp = os.stat(path).st_mtime_ns
        except RefusedInput as error:
            if error.reason == "does not exist":
                raise TemplateNotFound(name) from None
            raise TemplateError(f"{error.problem.message}: {path}") from None
        except (UnreadableInput, OSError) as error:
            raise TemplateError(str(error)) from None

        def uptodate() -> bool:
            try:
                return os.stat(path).st_mtime_ns == stamp
            except OSError:
                return False

        return source, str(path), uptodate


@functools.lru_cache(maxsize=8)
def _environment(folder: Path, fmt: str):
    """One sandbox per template folder and format, so each template compiles once per process."""

    root = folder.resolve()

    options = dict(loader=_FolderLoader(root), undefined=StrictUndefined, trim_blocks=True,
                   lstrip_blocks=True, keep_trailing_newline=True, auto_reload=True)
    if root == TEMPLATE_DIR.resolve():  # the shipped templates: compiled once, not once per process

        options["bytecode_cache"] = template_code(fmt)
    if fmt == "html":
        environment = ImmutableSandboxedEnvironment(autoescape=True, **options)
    else:
        environment = ImmutableSandboxedEnvironment(autoescape=False, finalize=_markdown_finalize, **options)
        # Markdown passes raw HTML through: text inside an attribute is escaped for HTML.
        environment.filters["attr"] = lambda value: Markup(md_attribute(str(value)))
    del environment.globals["lipsum"]  # text of any length on demand: nothing a rulebook needs
    return environment


def _markdown_finalize(value):
    """Markdown's autoescape: deck strings become literal text, rendered markup passes."""
    if value is None:
        return ""
    if isinstance(value, Markup):
        return value
    return md_escape(str(value))


# A designer's template runs within a budget (the shipped ones are trusted): this many seconds
# and bytes of output, and this much memory beyond what deckgen already uses.
TEMPLATE_SECONDS = 20.0
TEMPLATE_OUTPUT_BYTES = 50 * 1024 * 1024
TEMPLATE_MEMORY_BYTES = 1024 * 1024 * 1024


class TemplateFailed(OptionError):
    """A designer's template that cannot be rendered (exit code 2): names the file and line."""


def render(book: Book, fmt: str, template: Path, image_src: Callable[[Card], str],
           figure_image: FigureImage | None = None, icon_src: IconSource | None = None) -> str:
    """The book through a template; `figure_image` gives each figure of play's picture and, for
    Markdown, `icon_src` each inline icon's file (HTML carries its icons in the page)."""
    environment = _environment(template.parent, fmt)
    anchors = book.card_anchors.__getitem__
    writer = (HtmlWriter(book.deck, anchors, figure_image) if fmt == "html"
              else MarkdownWriter(book.deck, anchors, figure_image, icon_src))
    context = _Context(book, writer, image_src).build()
    if template.resolve().is_relative_to(TEMPLATE_DIR):
        return _render(environment, template, context)
    return _render_budgeted(environment, template, context)


def _render(environment, template: Path, context: dict) -> str:
    """The template's output, read piece by piece so a runaway one stops at the size budget."""
    try:
        pieces, size = [], 0
        for piece in environment.get_template(template.name).generate(context):
            size += len(piece)
            if size > TEMPLATE_OUTPUT_BYTES:
                raise TemplateFailed(f"{template}: template error: its output passed "
                                     f"{TEMPLATE_OUTPUT_BYTES // 2**20} MB")
            pieces.append(piece)
        return "".join(pieces)
    except TemplateError as error:
        line = getattr(error, "lineno", None)
        where = f"{getattr(error, 'filename', None) or template}" + (f":{line}" if line else "")
        raise TemplateFailed(f"{where}: template error: {error.message or error}") from None
    except UnicodeDecodeError as error:
        raise TemplateFailed(f"{template}: template error: not UTF-8 (byte 0x{error.object[error.start]:02x} "
                             f"at offset {error.start})") from None
    except RecursionError:
        raise TemplateFailed(f"{template}: template error: macros or includes recurse too deeply") from None
    except MemoryError:
        raise TemplateFailed(f"{template}: template error: it needs more memory than the budget") from None
    except (ArithmeticError, TypeError, ValueError, LookupError, AttributeError) as error:
        line = _template_line(error, template)
        raise TemplateFailed(f"{template}{f':{line}' if line else ''}: template error: "
                             f"{type(error).__name__}: {error}") from None


def _template_line(error: BaseException, template: Path) -> int | None:
    """The template line a Python error came from (Jinja maps its frames to template lines)."""
    traceback, line = error.__traceback__, None
    while traceback is not None:
        if traceback.tb_frame.f_code.co_filename == str(template.resolve()):
            line = traceback.tb_lineno
        traceback = traceback.tb_next
    return line


def _render_budgeted(environment, template: Path, context: dict) -> str:
    """`_render` in a child process that is stopped at the time budget, with its memory capped."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return _render(environment, template, context)  # no cheap child here: the size budget only
    spawn = multiprocessing.get_context("fork")
    receive, send = spawn.Pipe(duplex=False)
    child = spawn.Process(target=_render_child, args=(environment, template, context, send))
    child.start()
    send.close()
    try:
        if not receive.poll(TEMPLATE_SECONDS):
            raise TemplateFailed(f"{template}: template error: still running after {TEMPLATE_SECONDS:g} s "
                                 "(a loop too long?); the time budget of a template")
        try:
            kind, value = receive.recv()
        except EOFError:
            raise TemplateFailed(f"{template}: template error: it stopped without output "
                                 "(more memory than the budget?)") from None
    finally:
        child.kill()
        child.join()
        receive.close()
    if kind == "error":
        raise TemplateFailed(value)
    return value


def _render_child(environment, template: Path, context: dict, send) -> None:
    _cap_memory(TEMPLATE_MEMORY_BYTES)
    try:
        result = ("ok", _render(environment, template, context))
    except TemplateFailed as error:
        result = ("error", str(error))
    except BaseException as error:  # noqa: BLE001 - whatever a template does, the parent reports it
        result = ("error", f"{template}: template error: {type(error).__name__}: {error}")
    try:
        send.send(result)
    finally:
        send.close()
        os._exit(0)  # no atexit handlers or pytest machinery in a forked child


def _cap_memory(extra: int) -> None:
    try:
        import resource

        with open("/proc/self/statm") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (used + extra, resource.getrlimit(resource.RLIMIT_AS)[1]))
    except (ImportError, OSError, ValueError):
        pass  # no address-space limit on this system: the time budget still holds


_TOKEN = re.compile(r"[A-Za-z0-9._/-]+")


def token(value: str) -> str:
    """Anchors, ids and image paths: characters that need no escaping in any format are passed
    as they are, because Markdown escapes would be taken literally inside HTML attributes."""
    return Markup(value) if _TOKEN.fullmatch(value) else value


def png_data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


class _Context:
    """The book as plain data for a template.

    What a reader sees (names, titles, flavour text, the rulebook's own phrases) comes with a
    typesetter's punctuation (`smarten`), before the template escapes it; what a reader types or
    matches (ids, codes, anchors, referee options, the edition number) stays as the deck wrote it.
    """

    def __init__(self, book: Book, writer, image_src: Callable[[Card], str]):
        self.book, self.deck, self.writer, self.image_src = book, book.deck, writer, image_src

    def build(self) -> dict:
        deck = self.deck
        return {
            "format_version": 1,
            # The rulebook's own words in the deck's language: phrase("Contents"), see rulebook/phrases.py.
            "phrase": lambda english, **values: smarten(deck.phrase(english, **values)),
            "lang": deck.lang or "en",
            "deck": {
                "id": deck.id, "name": smarten(deck.name), "version": deck.version,
                "designer": smarten(deck.designer), "credits": [smarten(credit) for credit in deck.credits],
                "description": self.writer.inline(deck.description),
                "players": self.book.players, "play_time": smarten(deck.play_time), "total": deck.total,
                "theme": self.book.theme, "accent": deck.back.accent, "language": token(deck.language),
                "card_ratio": round(deck.card_size.height_mm / deck.card_size.width_mm, 4),
            },
            "suits": [self.suit(suit.id) | {"count": sum(c.count for c in deck.cards if c.suit == suit.id)}
                      for suit in deck.suits],
            "contents_anchor": token(self.book.contents_anchor),
            "contents": [self.heading(heading) for heading in self.book.headings()],
            "cover_cards": [self.card(CardEntry(card, self.book.card_anchor(card), None))
                            for card in self.book.cover_cards],
            "chapters": [self.chapter(chapter) for chapter in self.book.chapters],
            "appendices": [self.appendix(appendix) for appendix in self.book.appendices],
            "quickref": self.quickref(),
        }

    def heading(self, heading: Heading) -> dict:
        return {"level": heading.level, "number": heading.number, "title": smarten(heading.title),
                "label": smarten(heading.label), "anchor": token(heading.anchor), "rule_id": token(heading.rule_id)}

    def link(self, link: RulingLink) -> dict:
        return {"anchor": token(link.anchor), "label": smarten(link.label)}

    def suit(self, suit_id: str) -> dict:
        suit = self.deck.suit(suit_id)
        return {"id": suit.id, "name": smarten(suit.name), "symbol": suit.symbol, "color": suit.color}

    def chapter(self, chapter: Chapter) -> dict:
        return {
            "heading": self.heading(chapter.heading),
            "role": chapter.section.role,
            "intro": self.writer.blocks(chapter.section.text),
            "rules": [{"heading": self.heading(entry.heading), "id": token(entry.rule.id),
                       "text": self.writer.blocks(entry.rule.text),
                       "rulings": [self.link(link) for link in entry.rulings]}
                      for entry in chapter.rules],
            "components": self.components(chapter.components),
            "variants": [self.variant(entry) for entry in chapter.variants],
        }

    def components(self, rows: tuple[ComponentRow, ...]) -> list[dict]:
        return [{
            "name": smarten(row.name), "description": self.writer.inline(row.description), "count": row.count,
            "suits": [self.suit(suit) | {"count": count} for suit, count in row.by_suit],
            "samples": [self.card(CardEntry(card, self.book.card_anchor(card), None)) for card in row.samples],
        } for row in rows]

    def variant(self, entry: VariantEntry) -> dict:
        return {"id": entry.variant.id, "anchor": token(entry.anchor), "name": smarten(entry.variant.name),
                "text": self.writer.blocks(entry.variant.text),
                "options": [{"name": name, "value": value} for name, value in entry.options]}

    def card(self, entry: CardEntry) -> dict:
        card = entry.card
        return {
            "id": card.id, "anchor": token(entry.anchor), "name": smarten(card.name), "code": card.code,
            "type_line": smarten(card.type_line), "count": card.count,
            "suit": self.suit(card.suit) if card.suit else None,
            "text": self.writer.blocks(card.text), "flavor": smarten(card.flavor),
            "ruling": self.link(entry.ruling) if entry.ruling else None,
            "image": token(self.image_src(card)),
        }

    def appendix(self, appendix: Appendix) -> dict:
        return {
            "heading": self.heading(appendix.heading),
            "intro": self.writer.blocks(appendix.intro),
            "card_groups": [{"heading": self.heading(group.heading), "intro": self.writer.blocks(group.intro),
                             "layout": group.layout, "cards": [self.card(entry) for entry in group.cards]}
                            for group in appendix.card_groups],
            "rulings": [{
                "id": token(entry.ruling.id), "number": entry.number, "anchor": token(entry.anchor),
                "question": self.writer.inline(entry.ruling.question), "decision": self.writer.blocks(entry.ruling.decision),
                "reason": self.writer.blocks(entry.ruling.reason),
                "rules": [{"anchor": token(rule.anchor), "label": smarten(f"§{rule.label}")} for rule in entry.rules],
                "cards": [{"anchor": token(card.anchor), "label": smarten(card.card.name)} for card in entry.cards],
            } for entry in appendix.rulings],
            "variants": [self.variant(entry) for entry in appendix.variants],
        }

    def quickref(self) -> dict | None:
        quick = self.book.quickref
        if quick is None:
            return None
        return {"heading": self.heading(quick.heading),
                "entries": [{"title": smarten(entry.title), "text": self.writer.blocks(entry.text)}
                            for entry in quick.entries],
                "cards_heading": self.heading(quick.cards_heading),
                "components": self.components(quick.components)}
