"""Jinja2 text templates, a user's template folder, and the mini-markup they produce.

Templates write lines: ``# `` title, ``## `` heading, ``### `` subheading, ``- `` bullet,
``@ `` bookmark anchor, blank line between paragraphs. Values are XML-escaped, so a ship
called "Smith & Co" cannot break the layout; ``<b>``, ``<i>`` and a few other tags in the
template's own text are kept, any other markup is printed as text.

A user may replace any bundled template with a file of the same relative name in their
own folder (``--templates DIR``, like MkDocs' ``custom_dir``); ``user_templates(DIR)``
switches that on for one build. Every template, bundled or not, runs in Jinja2's
immutable sandbox with bounded sizes, and every problem in a template is reported as a
located ``file:line:column: found X, expected Y`` error instead of a traceback.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import operator
import os
import re
import traceback
import types
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup, soft_str

from generator.bundled import bundled_dir
from generator.errors import DataError, Problem
from generator.suggest import did_you_mean
from generator.units import MM

if TYPE_CHECKING:
    from reportlab.platypus import Flowable

TEMPLATE_SUFFIX = ".j2"
MAX_TEMPLATE_BYTES = 256 * 1024
"""Largest template file read, bundled or the user's."""
MAX_TEMPLATE_FILES = 200
"""Most template files a user's folder may hold."""
MAX_OUTPUT_CHARS = 2_000_000
"""Most characters one rendering may produce."""
MAX_ITEMS = 1_000_000
"""Most ``range`` items one rendering may create, and the longest repeated string or list."""
MAX_ARGUMENT = 100_000
"""Largest number passed to a method or as an exponent (``'x'.ljust(10**9)`` is refused)."""
PARTIAL_PREFIX = "_"
"""A user's file whose name starts with this is a partial for ``include``/``import`` only."""
MARKUP_TAGS = ("b", "i", "u", "strike", "super", "sub")
"""Paragraph tags a template's own text may use; ``<br/>`` too."""

_USER_DIR: contextvars.ContextVar[Path | None] = contextvars.ContextVar("user_templates",
                                                                       default=None)
_BUDGET: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("template_budget",
                                                                          default=None)


class TemplateRefused(jinja2.exceptions.SecurityError):
    """A template asked for more than a template may (size, time, or Python internals)."""


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
    from generator.branding import branded

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
        if not path.resolve().is_relative_to(folder.resolve()):
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


def _read(path: Path, name: str) -> str:
    """A template's text, refused when too large or not UTF-8."""
    size = path.stat().st_size
    if size > MAX_TEMPLATE_BYTES:
        raise DataError([Problem(str(path), 0, 0, "", f"found {size:,} bytes, expected at "
                                                      f"most {MAX_TEMPLATE_BYTES:,}")])
    try:
        return path.read_text(encoding="utf-8")
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
            if not path.is_file():
                continue
            if not path.resolve().is_relative_to(folder.resolve()):
                raise jinja2.TemplateNotFound(template)
            source = _read(path, template)
            mtime = path.stat().st_mtime

            def uptodate(path: Path = path, mtime: float = mtime) -> bool:
                return path.is_file() and path.stat().st_mtime == mtime

            return source, str(path), uptodate
        raise jinja2.TemplateNotFound(template)


# --- the sandbox -----------------------------------------------------------------------

_OPAQUE = (PurePath, types.ModuleType, io.IOBase, type)
"""Objects a template may print but not look inside (no ``path.read_text()``)."""
_NUMBER_IN_FORMAT = re.compile(r"\d{6,}")


def _spend(count: int) -> None:
    budget = _BUDGET.get()
    if budget is not None:
        budget[0] -= count
        if budget[0] < 0:
            raise TemplateRefused(f"more than {MAX_ITEMS:,} loop items in one rendering")


def _range(*args: int) -> range:
    """``range`` with one budget for the whole rendering (nested loops included)."""
    made = range(*args)
    _spend(len(made))
    return made


def _check_format(text: object) -> None:
    if isinstance(text, str) and _NUMBER_IN_FORMAT.search(text):
        raise TemplateRefused("a format with a width of 100,000 or more")


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    """The ``format`` filter, without huge widths."""
    _check_format(value)
    return soft_str(value) % (kwargs or args)


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, with sizes bounded and file objects opaque."""

    intercepted_binops = frozenset(["*", "**", "%"])

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """Also refuse looking inside paths, modules, files and classes."""
        return not isinstance(obj, _OPAQUE) and super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: jinja2.runtime.Context, operator_: str, left: Any,
                   right: Any) -> Any:
        """``*``, ``**`` and ``%`` with bounded results."""
        if operator_ == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(count, int):
                    if len(seq) * count > MAX_ITEMS:
                        raise TemplateRefused(f"a repetition longer than {MAX_ITEMS:,}")
            return left * right
        if operator_ == "**":
            if isinstance(right, (int, float)) and abs(right) > 64:
                raise TemplateRefused("an exponent above 64")
            return left**right
        _check_format(left)
        return operator.mod(left, right)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` without huge widths."""
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            _check_format(value.__self__)
        return wrapped

    def call(__self, __context: jinja2.runtime.Context, __obj: Any,  # noqa: N805
             *args: Any, **kwargs: Any) -> Any:
        """Refuse huge numbers as arguments (``'x'.center(10**9)``)."""
        if __obj is not _range:
            _check_numbers((*args, *kwargs.values()))
        return super().call(__context, __obj, *args, **kwargs)


def _check_numbers(values: tuple[Any, ...]) -> None:
    for value in values:
        if isinstance(value, int) and abs(value) > MAX_ARGUMENT:
            raise TemplateRefused(f"the number {value} as an argument, above "
                                  f"{MAX_ARGUMENT:,}")


def _bounded(func: Callable[..., Any]) -> Callable[..., Any]:
    """A built-in filter that refuses huge numeric arguments (``center(10**9)``)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = [a for a in args if not isinstance(a, jinja2.Environment)]
        _check_numbers((*given[1:], *kwargs.values()))
        return func(*args, **kwargs)

    return wrapper


BOUNDED_FILTERS = ("center", "indent", "wordwrap", "truncate", "batch", "slice", "round")
"""Built-in filters with a size argument."""


def _thousands(value: float) -> str:
    """``24000`` as ``24,000``."""
    return f"{value:,}" if isinstance(value, int) else f"{value:,g}"


def _g(value: float) -> str:
    """A number in its shortest form: ``24.0`` as ``24``, ``1.25`` as ``1.25``."""
    return f"{value:g}"


def _oneline(value: str) -> str:
    """Text with every run of whitespace (newlines too) as one space: one paragraph."""
    return " ".join(value.split())


def _signed(value: float) -> str:
    """``1`` as ``+1``, ``-1`` as ``-1``, 0 as ``0``."""
    return f"{value:+g}" if value else "0"


@functools.cache
def _environment(user_dir: Path | None, escape: bool) -> jinja2.Environment:
    folders = ([user_dir] if user_dir is not None else []) + [templates_dir()]
    env = _Sandbox(
        loader=_Loader(folders),
        autoescape=escape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["range"] = _range
    for name in BOUNDED_FILTERS:
        env.filters[name] = _bounded(env.filters[name])
    env.filters["format"] = _format
    env.filters["thousands"] = _thousands
    env.filters["signed"] = _signed
    env.filters["oneline"] = _oneline
    env.filters["g"] = _g
    return env


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
        return _collect(env.get_template(name).generate(**context))


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
        return {block: _collect(render(ctx)) for block, render in template.blocks.items()}


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
    budget = _BUDGET.set([MAX_ITEMS])
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
    except (TypeError, ValueError, ArithmeticError, LookupError, RecursionError) as err:
        raise DataError([_runtime_problem(err, name, f"found {type(err).__name__}: "
                                          f"{_sentence(str(err))}, expected a template "
                                          "that renders")]) from None
    finally:
        _BUDGET.reset(budget)


def _filename(env: jinja2.Environment, name: str) -> str:
    """The file a template name stands for (for messages)."""
    try:
        return env.get_template(name).filename or name
    except jinja2.TemplateError:
        return name


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


# --- mini-markup to flowables ----------------------------------------------------------

_TAG = re.compile(r"<(/?)([a-zA-Z]+)\s*(/?)>")
_ENTITY = re.compile(r"&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos|nbsp);")


def safe_markup(text: str) -> str:
    """Keep the plain paragraph tags, escape every other ``<`` and bare ``&``.

    Values are escaped by the template engine already; this guards the template's own
    text, so a template cannot load an image or a font (``<img src=...>``) nor break
    the paragraph with an unbalanced tag: a stray closing tag is printed as text and an
    unclosed one is closed at the end.
    """
    out: list[str] = []
    opened: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        tag = _TAG.match(text, at) if char == "<" else None
        if tag and _keep(tag, opened):
            out.append(tag.group(0))
            at = tag.end()
            continue
        entity = _ENTITY.match(text, at) if char == "&" else None
        if entity:
            out.append(entity.group(0))
            at = entity.end()
            continue
        out.append({"<": "&lt;", ">": "&gt;", "&": "&amp;"}.get(char, char))
        at += 1
    out += [f"</{name}>" for name in reversed(opened)]
    return "".join(out)


def _keep(tag: re.Match[str], opened: list[str]) -> bool:
    """Whether a tag is one a template may write here (and track what it opens)."""
    closing, name, empty = tag.group(1), tag.group(2), tag.group(3)
    if name == "br":
        return bool(empty) and not closing
    if name not in MARKUP_TAGS or empty:
        return False
    if not closing:
        opened.append(name)
        return True
    if opened and opened[-1] == name:
        opened.pop()
        return True
    return False


def markup_blocks(text: str) -> list[tuple[str, str]]:
    """Split template mini-markup into ``(kind, text)`` blocks, the text made safe.

    Kinds: ``anchor`` (``@ ``, plain text), ``h1``/``h2``/``h3`` (``# ``...), ``bullet``
    (``- ``), ``line`` (``| ``, one short line of its own) and ``body`` (consecutive
    lines, joined; a blank line ends a paragraph).
    """
    blocks: list[tuple[str, str]] = []
    para: list[str] = []
    prefixes = (("### ", "h3"), ("## ", "h2"), ("# ", "h1"), ("- ", "bullet"), ("| ", "line"))

    def flush() -> None:
        if para:
            blocks.append(("body", safe_markup(" ".join(para))))
            para.clear()

    for raw in text.splitlines():
        line = raw.strip()
        kind = next((k for prefix, k in prefixes if line.startswith(prefix)), None)
        if not line:
            flush()
        elif line.startswith("@ "):
            flush()
            blocks.append(("anchor", str(Markup(line[2:]).unescape())))
        elif kind is not None:
            flush()
            blocks.append((kind, safe_markup(line[line.index(" ") + 1:])))
        else:
            para.append(line)
    flush()
    return blocks


def markup_to_flowables(text: str) -> list[Flowable]:
    """Turn the template mini-markup into platypus flowables."""
    # platypus takes a while to import; a build's workers import it side by side.
    from reportlab.platypus import Paragraph, Spacer

    from generator.tablestyle import Anchor, styles

    st = styles()
    out: list[Flowable] = []
    for kind, line in markup_blocks(text):
        if kind == "anchor":
            out.append(Anchor(line))
        elif kind == "body":
            out += [Paragraph(line, st["body"]), Spacer(1, 1.5 * MM)]
        elif kind == "bullet":
            out.append(Paragraph(line, st["bullet"], bulletText="•"))
        elif kind == "line":
            out.append(Paragraph(line, st["small"]))
        else:
            out.append(Paragraph(line, st[kind]))
    return out
