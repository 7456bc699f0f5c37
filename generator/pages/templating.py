"""Jinja2 text templates: the bundled ones, a user's template folder, and rendering.

Templates write the mini-markup of ``generator.pages.markup``: ``# `` title, ``## ``
heading, ``### `` subheading, ``- `` bullet, ``@ `` bookmark anchor, blank line between
paragraphs. Values are XML-escaped, so a ship called "Smith & Co" cannot break the
layout.

A user may replace any bundled template with a file of the same relative name in their
own folder (``--templates DIR``, like MkDocs' ``custom_dir``); ``user_templates(DIR)``
switches that on for one build. Every template, bundled or not, runs in the bounded
sandbox of ``generator.pages.templatesandbox``, its rendered text is checked against
the page layout's limits, and every problem in a template is reported as a located
``file:line:column: found X, expected Y`` error instead of a traceback.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import functools
import os
import re
import stat
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import jinja2

from generator.core.errors import DataError, Problem
from generator.core.pathargs import resolved
from generator.core.suggest import did_you_mean
from generator.data.bundled import bundled_dir
from generator.pages.markup import ENTITY, entity_char, markup_blocks
from generator.pages.templatebudget import BUDGET, Budget, TemplateRefused
from generator.pages.templatesandbox import sandbox

TEMPLATE_SUFFIX = ".j2"
MAX_TEMPLATE_BYTES = 256 * 1024
"""Largest template file read, bundled or the user's."""
MAX_TEMPLATE_FILES = 200
"""Most template files a user's folder may hold."""
MAX_OUTPUT_CHARS = 2_000_000
"""Most characters one rendering may produce."""
MAX_LAYOUT_CHARS = 200_000
"""Most characters of paragraph text one rendering may hand to the page layout (about 60
pages of small print; ReportLab sets about 200,000 characters a second)."""
MAX_BLOCKS = 2_000
"""Most headings, bullets, lines and paragraphs one rendering may hand to the layout."""
MAX_PARAGRAPH_CHARS = 20_000
"""Longest paragraph (about six pages; ReportLab's time grows with a paragraph's length)."""
MAX_WORD_CHARS = 500
"""Longest word: longer than any word or web address, and ReportLab breaks an overlong
word in time that grows with its length squared."""
PARTIAL_PREFIX = "_"
"""A user's file whose name starts with this is a partial for ``include``/``import`` only."""

_USER_DIR: contextvars.ContextVar[Path | None] = contextvars.ContextVar("user_templates",
                                                                       default=None)


def templates_dir() -> Path:
    """Folder of the bundled templates."""
    return bundled_dir("quarterdeck_templates", "templates")


def bundled_names() -> list[str]:
    """Relative names of every bundled template (``<ruleset>/briefing.md.j2``)."""
    root = templates_dir()
    return sorted(p.relative_to(root).as_posix() for p in root.rglob(f"*{TEMPLATE_SUFFIX}"))


# --- the user's folder -----------------------------------------------------------------


@contextlib.contextmanager
def user_templates(folder: Path | None) -> Iterator[None]:
    """Use the templates in ``folder`` before the bundled ones, for the ``with`` block.

    Every template in the folder is checked first (name, size, encoding, syntax), so a
    mistake is reported before anything is rendered. ``None`` changes nothing.

    Args:
        folder: The user's template folder (``--templates DIR``), or None.

    Raises:
        DataError: Every problem in the folder's templates, located.

    """
    if folder is None:
        yield
        return
    check_user_dir(folder)
    from generator.pages.branding import branded

    token = _USER_DIR.set(folder)
    try:
        with branded(folder):  # a branding.yaml there puts the club on every page
            yield
    finally:
        _USER_DIR.reset(token)


def check_user_dir(folder: Path) -> None:
    """Check every template in a user's folder without rendering any.

    Raises:
        DataError: The folder is missing, or its templates have problems (all listed).

    """
    try:
        os.stat(folder)
    except OSError as err:  # is_dir() would call a link loop "no such folder"
        if err.errno == errno.ELOOP:
            raise DataError([Problem(str(folder), 0, 0, "", "found a symbolic link loop, "
                                     "expected a folder of templates")]) from None
    if not folder.is_dir():
        raise DataError([Problem(str(folder), 0, 0, "", "found no such folder, expected a "
                                                        "folder of templates")])
    files: list[Path] = []
    for top, _, names in os.walk(folder):  # links to folders are not followed
        files += [Path(top) / name for name in names]
        if len(files) > MAX_TEMPLATE_FILES:
            raise DataError([Problem(str(folder), 0, 0, "", f"found more than "
                                     f"{MAX_TEMPLATE_FILES} files, expected at most "
                                     f"{MAX_TEMPLATE_FILES}")])
    files.sort()
    known = bundled_names()
    env = _environment(folder, True)
    problems: list[Problem] = []
    for path in files:
        name = path.relative_to(folder).as_posix()
        if not name.endswith(TEMPLATE_SUFFIX) or path.name.startswith("."):
            continue
        real, base = resolved(path), resolved(folder)
        if real is None or base is None:  # a link loop
            problems.append(Problem(str(path), 0, 0, "", "found a symbolic link loop, "
                                    "expected a template file"))
            continue
        inside = real.is_relative_to(base)
        if not inside:
            problems.append(Problem(str(path), 0, 0, "", "found a link that leads out of the "
                                    "folder, expected a file inside it"))
            continue
        if name not in known and not path.name.startswith(PARTIAL_PREFIX):
            problems.append(Problem(str(path), 0, 0, "", "found a template no bundled one "
                                    f"has the name of, expected one of: {', '.join(known)}"
                                    f"{did_you_mean(name, known)} (name a partial for "
                                    f"include '{PARTIAL_PREFIX}...')"))
            continue
        try:
            source = _read(path, name)
            env.parse(source, name, str(path))
        except jinja2.TemplateSyntaxError as err:
            problems.append(_syntax_problem(err, str(path), source))
        except DataError as err:
            problems.extend(err.problems)
    if problems:
        raise DataError(problems)


_NOT_REGULAR = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
                (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                (stat.S_ISDIR, "a folder"))


def _read(path: Path, name: str) -> str:
    """A template's text, refused when not a regular file, too large or not UTF-8.

    Opening a FIFO for reading would wait for a writer forever, and opening a device may
    do something: the file is checked before it is opened, then opened without blocking
    and checked again on the open descriptor (it may have been swapped in between).
    """

    def refuse(found: str, expected: str) -> DataError:
        return DataError([Problem(str(path), 0, 0, "", f"found {found}, expected {expected}")])

    def check(info: os.stat_result) -> None:
        kind = next((what for test, what in _NOT_REGULAR if test(info.st_mode)), None)
        if kind is not None or not stat.S_ISREG(info.st_mode):
            raise refuse(kind or "a special file", "a regular file")

    try:
        check(os.stat(path))
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        found = ("a symbolic link loop" if err.errno == errno.ELOOP
                 else _sentence(err.strerror or "an unreadable file"))
        raise refuse(found, "a readable template file") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        check(info)
        size = info.st_size
        if size > MAX_TEMPLATE_BYTES:
            raise DataError([Problem(str(path), 0, 0, "", f"found {size:,} bytes, expected "
                                                          f"at most {MAX_TEMPLATE_BYTES:,}")])
        data = file.read(MAX_TEMPLATE_BYTES + 1)  # a file that grew since fstat stays bounded
    if len(data) > MAX_TEMPLATE_BYTES:
        raise DataError([Problem(str(path), 0, 0, "", f"found more than "
                                 f"{MAX_TEMPLATE_BYTES:,} bytes, expected at most "
                                 f"{MAX_TEMPLATE_BYTES:,}")])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DataError([Problem(str(path), 0, 0, "", f"found a byte that is not UTF-8 at "
                                                      f"offset {err.start}, expected UTF-8 "
                                                      "text")]) from None


class _Loader(jinja2.BaseLoader):
    """The user's folder first, then the bundled templates; nothing outside either.

    A name with ``..`` is refused by Jinja's own path splitting; a symbolic link that
    leads outside its folder is refused here.
    """

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = jinja2.loaders.split_template_path(template)
        for folder in self.folders:
            path = folder.joinpath(*pieces)
            if not path.is_symlink() and not path.exists():
                continue
            real, base = resolved(path), resolved(folder)
            # a link loop (None) is let through: _read says what it is
            inside = real is None or base is None or real.is_relative_to(base)
            if not inside:
                raise jinja2.TemplateNotFound(template)
            source = _read(path, template)  # a FIFO, a folder, a loop: refused, located
            mtime = path.stat().st_mtime

            def uptodate(path: Path = path, mtime: float = mtime) -> bool:
                return path.is_file() and path.stat().st_mtime == mtime

            return source, str(path), uptodate
        raise jinja2.TemplateNotFound(template)


@functools.cache
def _environment(user_dir: Path | None, escape: bool) -> jinja2.Environment:
    folders = ([user_dir] if user_dir is not None else []) + [templates_dir()]
    return sandbox(_Loader(folders), escape)


def environment(escape: bool = True) -> jinja2.Environment:
    """The Jinja2 environment for this build (strict, sandboxed, the user's folder first).

    Args:
        escape: XML-escape values (for text that becomes PDF paragraphs); off for
            Markdown and YAML files.

    """
    return _environment(_USER_DIR.get(), escape)


def render_text(name: str, escape: bool = True, **context: Any) -> str:
    """Render a template to text (``escape=False`` for Markdown or YAML output).

    Raises:
        DataError: The template (the user's, or a bundled one) has a syntax error, uses
            a name it is not given, or asks for more than the sandbox allows; located at
            the template's line and column.

    """
    env = environment(escape)
    with _located(env, name, context):
        text = _collect(env.get_template(name).generate(**context))
    if escape:  # text for PDF paragraphs: bounded for the layout too
        _check_layout(_filename(env, name), text, markup=True)
    return text


def render_blocks(name: str, required: Sequence[str], escape: bool = True,
                  **context: Any) -> dict[str, str]:
    """Render each ``{% block %}`` of a template on its own, by block name.

    For short texts printed in different places (notes under tables): one template
    file holds them all, and a user replaces them together.

    Args:
        name: The template's relative name.
        required: Blocks the caller prints; a template without one is an error.
        escape: XML-escape values.
        context: The template's variables.

    Raises:
        DataError: As ``render_text``, or a required block is missing.

    """
    env = environment(escape)
    with _located(env, name, context):
        template = env.get_template(name)
        missing = [b for b in required if b not in template.blocks]
        if missing:
            raise DataError([Problem(template.filename or name, 0, 0, "",
                                     f"found no block '{missing[0]}', expected blocks "
                                     f"{', '.join(required)}"
                                     f"{did_you_mean(missing[0], template.blocks)}")])
        ctx = template.new_context(context)
        texts = {block: _collect(render(ctx)) for block, render in template.blocks.items()}
    if escape:
        for text in texts.values():
            _check_layout(template.filename or name, text, markup=False)
    return texts


def _collect(chunks: Iterator[str]) -> str:
    out: list[str] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_OUTPUT_CHARS:
            raise TemplateRefused(f"more than {MAX_OUTPUT_CHARS:,} characters of output")
        out.append(chunk)
    return "".join(out)


@contextlib.contextmanager
def _located(env: jinja2.Environment, name: str, context: dict[str, Any]) -> Iterator[None]:
    """Turn any error while rendering ``name`` into a located DataError (with a budget)."""
    budget = BUDGET.set(Budget())
    try:
        yield
    except TemplateRefused as err:
        raise DataError([_runtime_problem(err, _filename(env, name), f"found {err}, "
                                          "expected a template within the sandbox's limits"
                                          )]) from None
    except jinja2.TemplateSyntaxError as err:
        source = err.source if err.source is not None else ""
        raise DataError([_syntax_problem(err, err.filename or name, source)]) from None
    except jinja2.TemplateNotFound as err:
        raise DataError([_runtime_problem(err, name, f"found template '{err.name}', "
                                          "expected a template in the user's folder or "
                                          "the bundled ones")]) from None
    except jinja2.UndefinedError as err:
        raise DataError([_runtime_problem(err, name, _undefined_message(err, context))]
                        ) from None
    except jinja2.exceptions.SecurityError as err:
        raise DataError([_runtime_problem(err, name, _unsafe_message(err))]) from None
    except jinja2.TemplateError as err:
        raise DataError([_runtime_problem(err, name, f"found {_sentence(str(err))}, "
                                          "expected a template that renders")]) from None
    except RecursionError as err:
        # Python's own message names whatever call ran out of room; what it means for a
        # template is one thing (includes and macro calls have limits of their own)
        raise DataError([_runtime_problem(err, name, "found templates nested too deep to "
                                          "render (a template that extends or imports "
                                          "itself), expected a template that renders")]
                        ) from None
    except (TypeError, ValueError, ArithmeticError, LookupError) as err:
        raise DataError([_runtime_problem(err, name, f"found {type(err).__name__}: "
                                          f"{_sentence(str(err))}, expected a template "
                                          "that renders")]) from None
    finally:
        BUDGET.reset(budget)


def _filename(env: jinja2.Environment, name: str) -> str:
    """The file a template name stands for (for messages)."""
    token = BUDGET.set(None)  # looking it up again is not the template's spending
    try:
        return env.get_template(name).filename or name
    except (jinja2.TemplateError, DataError):
        return name
    finally:
        BUDGET.reset(token)


# --- located messages ------------------------------------------------------------------

_QUOTED = re.compile(r"'([^']+)'")


def _sentence(text: str) -> str:
    """A Jinja message as a clause: first letter lower-case, no final full stop."""
    text = " ".join(text.split()).rstrip(".").replace(". ", "; ")
    return text[:1].lower() + text[1:]


def _column(line: str, message: str) -> int:
    """Best column for a message on a line: the first quoted word it names, else the tag."""
    for word in _QUOTED.findall(message):
        at = line.find(word)
        if at >= 0:
            return at + 1
    for opener in ("{{", "{%"):
        at = line.find(opener)
        if at >= 0:
            return at + 1
    return 1 if line.strip() else 0


def _line(source: str, lineno: int) -> str:
    lines = source.splitlines()
    return lines[lineno - 1] if 0 < lineno <= len(lines) else ""


def _syntax_problem(err: jinja2.TemplateSyntaxError, file: str, source: str) -> Problem:
    text = source or err.source or ""
    return Problem(file, err.lineno, _column(_line(text, err.lineno), err.message or ""), "",
                   f"found {_sentence(err.message or 'a syntax error')}, expected Jinja2 "
                   "template syntax")


def _runtime_problem(err: BaseException, name: str, message: str) -> Problem:
    """Locate an error raised while rendering at the innermost template line."""
    frames = [f for f in traceback.extract_tb(err.__traceback__)
              if f.filename.endswith(TEMPLATE_SUFFIX) and os.path.isfile(f.filename)]
    if not frames:
        return Problem(name, 0, 0, "", message)
    frame = frames[-1]
    lineno = frame.lineno or 0
    try:
        source = Path(frame.filename).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        source = ""
    return Problem(frame.filename, lineno, _column(_line(source, lineno), message), "",
                   message)


def _unsafe_message(err: jinja2.exceptions.SecurityError) -> str:
    text = _sentence(str(err))
    match = re.fullmatch(r"access to attribute '([^']+)' of '([^']+)' object is unsafe", text)
    if match:
        text = f"attribute '{match.group(1)}' of a {match.group(2)} value"
    return (f"found {text}, expected only the values the template is given (the sandbox "
            "refuses Python internals, files and changes to values)")


def _undefined_message(err: jinja2.UndefinedError, context: dict[str, Any]) -> str:
    text = _sentence(str(err))
    match = re.fullmatch(r"'([^']+)' is undefined", text)
    if match:
        name = match.group(1)
        given = sorted(context)
        return (f"found undefined name '{name}', expected one of the names the template is "
                f"given: {', '.join(given)}{did_you_mean(name, given)}")
    match = re.fullmatch(r"'(.+)' has no attribute '([^']+)'", text)
    if match:
        return (f"found no field '{match.group(2)}' in {match.group(1)}, expected one of its "
                "fields")
    return f"found {text}, expected a name the value has"


# --- the layout's limits ---------------------------------------------------------------
#
# ReportLab's time grows with a paragraph's length and, to break a word longer than a
# line, with the word's length squared: a 999,000-character word or 300,000 bullets take
# minutes. Rendered paragraph text is therefore checked before any of it is laid out. An
# overlong word is refused rather than hard-broken: no word or web address is 500
# characters long, so one that is comes from a template gone wrong (a runaway loop, a
# missing space), and pages of broken-up characters would only hide that mistake.


def _check_layout(file: str, text: str, markup: bool) -> None:
    """Refuse rendered text the page layout would take too long over, or cannot set.

    Args:
        file: The template (for the message).
        text: What it rendered.
        markup: Mini-markup (headings, bullets, paragraphs) rather than one paragraph.

    Raises:
        DataError: Too much text, too many blocks, an overlong paragraph or word, or a
            character reference that names no character; located at the template (and
            the reference's line in it, when the template wrote it).

    """

    def refuse(message: str, line: int = 0, column: int = 0) -> DataError:
        return DataError([Problem(file, line, column, "", message)])

    if len(text) > MAX_LAYOUT_CHARS:
        raise refuse(f"found {len(text):,} characters of text to lay out, expected at most "
                     f"{MAX_LAYOUT_CHARS:,}")
    for entity in ENTITY.finditer(text):
        if entity_char(entity.group(1)) is None:
            line, column = _find_in_template(file, entity.group(0))
            raise refuse(f"found the character reference '{entity.group(0)}', expected one "
                         "that names a character (at most &#x10FFFF;, not a surrogate)",
                         line, column)
    blocks = [body for _, body in markup_blocks(text)] if markup else [text]
    if len(blocks) > MAX_BLOCKS:
        raise refuse(f"found {len(blocks):,} headings, bullets, lines and paragraphs to lay "
                     f"out, expected at most {MAX_BLOCKS:,}")
    for body in blocks:
        if len(body) > MAX_PARAGRAPH_CHARS:
            raise refuse(f"found a paragraph of {len(body):,} characters, expected at most "
                         f"{MAX_PARAGRAPH_CHARS:,}")
        word = max(body.split(), key=len, default="")
        if len(word) > MAX_WORD_CHARS:
            raise refuse(f"found a word of {len(word):,} characters ('{word[:20]}...'), "
                         f"expected at most {MAX_WORD_CHARS:,}")


def _find_in_template(file: str, needle: str) -> tuple[int, int]:
    """Line and column of ``needle`` in a template file, (0, 0) when it is not there."""
    try:
        source = _read(Path(file), file)
    except DataError:
        return 0, 0
    at = source.find(needle)
    if at < 0:
        return 0, 0
    line = source.count("\n", 0, at) + 1
    return line, at - (source.rfind("\n", 0, at) + 1) + 1
