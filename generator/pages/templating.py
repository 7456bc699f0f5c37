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
import dataclasses
import errno
import functools
import io
import os
import re
import stat
import string
import traceback
import types
from collections.abc import (
    Callable,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    MutableMapping,
    Sequence,
    ValuesView,
)
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup, soft_str

from generator.core.errors import DataError, Problem
from generator.core.pathargs import resolved
from generator.core.suggest import did_you_mean
from generator.core.units import MM
from generator.data.bundled import bundled_dir

if TYPE_CHECKING:
    from reportlab.platypus import Flowable

TEMPLATE_SUFFIX = ".j2"
MAX_TEMPLATE_BYTES = 256 * 1024
"""Largest template file read, bundled or the user's."""
MAX_TEMPLATE_FILES = 200
"""Most template files a user's folder may hold."""
MAX_OUTPUT_CHARS = 2_000_000
"""Most characters one rendering may produce."""
MAX_ITEMS = 200_000
"""Most characters one value a template makes may hold (a string, a list, a ``range``, a
macro's or block's output, a namespace's attributes together), each item of a list or
dict counting ITEM_WEIGHT characters."""
ITEM_WEIGHT = 20
"""Characters an item of a list, dict or range counts as: Python-level filters (``sort``,
``unique``, ``pprint``, ``dictsort``...) spend about as long on an item as string work
spends on twenty characters, so a list holds at most 10,000 items."""
MAX_STEPS = 50_000
"""Most steps one rendering may take: each call (macro, filter, test, method), operator,
attribute, loop item and ``include``/``import``, and a step for every BODY_NODES nodes
of template a loop item, macro call, block or include runs. A step costs a few
microseconds, so a rendering ends (or is refused) well within a second whatever the
template asks; the bundled templates take at most about 1,200."""
MAX_WORK = 2_000_000
"""Most characters one rendering may build, copy, compare or pass around, each item of a
list or dict counting ITEM_WEIGHT (the bundled templates handle under 10,000)."""
BODY_NODES = 10
"""Nodes of a parsed template (names, operators, tags, text) that count as one step."""
MACRO_STEPS = 10
"""Steps a macro call counts as: it costs about ten times a loop item."""
MAX_DEPTH = 50
"""Deepest nesting of macro calls (a macro calling itself) and recursive loops
(``loop(...)``): far above any real template, far below Python's own recursion limit."""
MAX_INCLUDE_DEPTH = 20
"""Deepest nesting of includes (a template including itself)."""
MAX_NESTING = 100
"""Deepest nesting of lists and dicts in a value a template makes."""
MAX_INT_BITS = 4096
"""Largest integer (in bits) a ``*`` or ``**`` may make: beyond that arithmetic gets slow
and the number cannot be printed anyway."""
MIN_WRAP_WIDTH = 10
"""Narrowest ``wordwrap`` width: a narrower one makes a line per character or two."""
MAX_WRAP_CHARS = 50_000
"""Longest text ``wordwrap`` takes (breaking a long word costs its length squared over the
width)."""
MAX_LIPSUM_WORDS = 10_000
"""Most words ``lipsum`` may make (paragraphs times the most words in one)."""
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
MAX_ARGUMENT = 100_000
"""Largest number passed to a method or as an exponent (``'x'.ljust(10**9)`` is refused)."""
PARTIAL_PREFIX = "_"
"""A user's file whose name starts with this is a partial for ``include``/``import`` only."""
MARKUP_TAGS = ("b", "i", "u", "strike", "super", "sub")
"""Paragraph tags a template's own text may use; ``<br/>`` too."""

@dataclasses.dataclass
class _Budget:
    """What one rendering may still spend, and how deep its macro calls are nested."""

    steps: int = MAX_STEPS
    work: int = MAX_WORK
    depth: int = 0
    includes: int = 0


_USER_DIR: contextvars.ContextVar[Path | None] = contextvars.ContextVar("user_templates",
                                                                       default=None)
_BUDGET: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("template_budget",
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


# --- the sandbox -----------------------------------------------------------------------
#
# Jinja2's sandbox keeps a template away from Python's internals but not from work: a
# macro calling itself twice 40 levels deep, a loop over a long string inside another,
# a string doubled in a loop. Every rendering therefore gets a budget (``_Budget``):
#
# - a *step* for each call (macro, filter, test, method, global), operator, attribute,
#   loop item and include, and for every BODY_NODES nodes of template text a loop item,
#   macro call, block or include runs: MAX_STEPS in all;
# - *work* for each character a step builds, copies, compares or passes on (an item of
#   a list or dict counting ITEM_WEIGHT): MAX_WORK in all;
# - no value a template makes may weigh more than MAX_ITEMS characters, checked *before*
#   an operation that multiplies sizes (``*``, ``+``, ``~``, ``%``, ``format``,
#   ``replace``, ``join``, ``indent``, ``wordwrap``, ...) and after every other one, so a
#   list of many references to one long string cannot be printed either;
# - macro calls and recursive loops nest at most MAX_DEPTH deep, includes
#   MAX_INCLUDE_DEPTH.
#
# Loops, ``~``, comparisons, slices and literal lists are metered by rewriting the
# parsed template (``_Meter``) so they pass through the filters below; calls and
# operators through the sandbox's own hooks; output a macro, block or ``{% set %}``
# collects through ``environment.concat``.

_OPAQUE = (PurePath, types.ModuleType, io.IOBase, type)
"""Objects a template may print but not look inside (no ``path.read_text()``)."""
_NUMBER_IN_FORMAT = re.compile(r"\d{6,}")
_SIZED = (str, bytes, list, tuple, dict, set, frozenset, range, KeysView, ValuesView,
          ItemsView)
_SCALARS = {int, float, bool, type(None)}
_LOOP_FILTER = "qd.loop"
_CONCAT_FILTER = "qd.concat"
_SIZED_FILTER = "qd.sized"
_MADE_FILTER = "qd.made"
_CHARGE_FILTER = "qd.charge"


def _spend(steps: int = 1, work: int = 0) -> None:
    """Charge the current rendering; refuse once it has spent its budget."""
    budget = _BUDGET.get()
    if budget is None:  # compiling (constant folding) or outside a rendering
        return
    budget.steps -= steps
    budget.work -= work
    if budget.steps < 0:
        raise TemplateRefused(f"more than {MAX_STEPS:,} steps (calls, operators, loop "
                              "items and the template text they run) in one rendering")
    if budget.work < 0:
        raise TemplateRefused(f"more than {MAX_WORK:,} characters handled in one rendering "
                              f"(an item of a list or dict counting {ITEM_WEIGHT})")


def _size(value: Any) -> int:
    """What passing a value to a filter or method, comparing or slicing it costs.

    Its length, each item of a list or dict counting ITEM_WEIGHT.
    """
    if isinstance(value, (str, bytes)):
        return len(value)
    return ITEM_WEIGHT * len(value) if isinstance(value, _SIZED) else 0


def _weight(value: Any, memo: dict[int, int] | None = None, depth: int = 0) -> int:
    """Characters and items in ``value``, counted as printing it would.

    A list holding one string a thousand times weighs a thousand strings; counting stops
    past MAX_ITEMS. Objects the program gives a template (ships, charts) weigh 1: their size
    is the program's, not the template's.

    Raises:
        TemplateRefused: The value nests deeper than MAX_NESTING.

    """
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, range):
        return ITEM_WEIGHT * len(value)
    if isinstance(value, jinja2.utils.Namespace):
        value = object.__getattribute__(value, "_Namespace__attrs")
    if not isinstance(value, (list, tuple, dict, set, frozenset, KeysView, ValuesView,
                              ItemsView)):
        return 1
    if depth > MAX_NESTING:
        raise TemplateRefused(f"a value nested more than {MAX_NESTING} deep")
    memo = {} if memo is None else memo
    key = id(value)
    if key in memo:
        return memo[key]
    memo[key] = 1  # a value holding itself (only the program can make one) counts once
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
    kinds = set(map(type, items))  # the common flat cases counted at C speed
    if kinds <= _SCALARS:
        memo[key] = 1 + ITEM_WEIGHT * len(items)
        return memo[key]
    if kinds <= {str, Markup}:
        memo[key] = 1 + ITEM_WEIGHT * len(items) + sum(map(len, items))
        return memo[key]
    total = 1
    for item in items:
        total += ITEM_WEIGHT + _weight(item, memo, depth + 1)
        if total > MAX_ITEMS:
            break
    memo[key] = total
    return total


def _too_big(what: str = "a value", items: bool = True) -> TemplateRefused:
    """The refusal of a value above MAX_ITEMS (``items``: one that may be a list)."""
    counting = f" (an item of a list or dict counting {ITEM_WEIGHT})" if items else ""
    return TemplateRefused(f"{what} of more than {MAX_ITEMS:,} characters{counting}")


def _made(value: Any) -> Any:
    """A value the template just made, refused when too big, its size charged as work."""
    if isinstance(value, jinja2.runtime.Undefined):
        return value
    weight = _weight(value)
    if weight > MAX_ITEMS:
        raise _too_big()
    _spend(0, weight)
    return value


def _predict(size: int, what: str = "a value") -> None:
    """Refuse an operation before it makes a value ``size`` long (a text but for a sum)."""
    if size > MAX_ITEMS:
        raise _too_big(what, what == "a sum")
    _spend(0, size)


def _range(*args: int) -> range:
    """``range`` of at most MAX_ITEMS // ITEM_WEIGHT items (each loop item is a step)."""
    made = range(*args)
    if len(made) > MAX_ITEMS // ITEM_WEIGHT:
        raise TemplateRefused(f"a range of {len(made):,} items, above "
                              f"{MAX_ITEMS // ITEM_WEIGHT:,}")
    return made


def _lipsum(n: int = 5, html: bool = True, min: int = 20,  # noqa: A002
            max: int = 100) -> str:  # noqa: A002
    """Jinja's ``lipsum`` with at most MAX_LIPSUM_WORDS words."""
    numbers = isinstance(n, (int, float)) and isinstance(max, (int, float))
    if numbers and n * max > MAX_LIPSUM_WORDS:  # a float is as good as an int to lipsum
        raise TemplateRefused(f"lipsum of up to {n * max:,g} words, above "
                              f"{MAX_LIPSUM_WORDS:,}")
    _spend(int(n * max) if numbers else 1)  # a step a word
    return jinja2.utils.generate_lorem_ipsum(n, html, min, max)


class _Namespace(jinja2.utils.Namespace):
    """``namespace()`` whose attributes together stay within MAX_ITEMS.

    Each assignment is a step, and ``ns.s = ns.s ~ ns.s`` in a loop is refused, not
    left to grow.
    """

    def __setitem__(self, name: str, value: Any) -> None:
        _spend(1)
        super().__setitem__(name, value)
        _made(self)


def _loop_items(iterable: Any) -> Any:
    """What a ``for`` loop walks, a step per item.

    A sized value (a string, list, dict or range) is charged up front, anything else (a
    generator) item by item.
    """
    if isinstance(iterable, _SIZED):
        _spend(len(iterable))
        return iterable
    if isinstance(iterable, jinja2.runtime.Undefined):
        return iterable
    return _metered(iter(iterable))


def _metered(items: Iterator[Any]) -> Iterator[Any]:
    for item in items:
        _spend(1)
        yield item


@jinja2.pass_context
def _loop_filter(context: jinja2.runtime.Context, iterable: Any) -> Any:
    # pass_context keeps the compiler from running it at compile time (constant folding)
    return _loop_items(iterable)


def _made_filter(value: Any) -> Any:
    """A literal list, tuple or dict: a step, and ``_made``."""
    _spend(1)
    return _made(value)


@jinja2.pass_eval_context
def _concat_filter(eval_ctx: jinja2.nodes.EvalContext, parts: tuple[Any, ...]) -> str:
    """``a ~ b ~ c``: a step, the sizes added up before the text is joined."""
    _spend(1)
    texts = [soft_str(part) for part in parts]
    _predict(sum(map(len, texts)), "a joined text")
    joined = (jinja2.runtime.markup_join(texts) if eval_ctx.autoescape
              else jinja2.runtime.str_join(texts))
    return str(_made(joined)) if not isinstance(joined, Markup) else _made(joined)


def _sized_filter(value: Any) -> Any:
    """A compared or sliced value: a step, its length charged as work."""
    _spend(1, _size(value))
    return value


@jinja2.pass_context
def _charge_filter(context: jinja2.runtime.Context, steps: int) -> str:
    """Charge the steps a body costs (``_Meter._charged``); prints nothing."""
    _spend(steps)
    return ""


class _Meter(jinja2.visitor.NodeTransformer):
    """Rewrite a parsed template so its unmetered operations go through filters.

    Loops, ``~``, comparisons, slices and literal lists then pass through the metering
    filters (the compiler turns each into a plain call).
    """

    @staticmethod
    def _filter(node: jinja2.nodes.Node, name: str) -> jinja2.nodes.Filter:
        return jinja2.nodes.Filter(node, name, [], [], None, None, lineno=node.lineno)

    @staticmethod
    def _charged(body: list[jinja2.nodes.Node], lineno: int) -> list[jinja2.nodes.Node]:
        """``body`` led by an output of nothing that charges a step per BODY_NODES nodes.

        What a loop item, a macro call or a block costs grows with the template text it
        runs, so a loop over a 10,000-line body costs accordingly.
        """
        nodes = sum(1 for node in body for _ in node.find_all(jinja2.nodes.Node)) + len(body)
        charge = jinja2.nodes.Filter(jinja2.nodes.Const(nodes // BODY_NODES, lineno=lineno),
                                     _CHARGE_FILTER, [], [], None, None, lineno=lineno)
        return [jinja2.nodes.Output([charge], lineno=lineno), *body]

    def visit_Template(self, node: jinja2.nodes.Template) -> jinja2.nodes.Node:
        self.generic_visit(node)
        node.body = self._charged(node.body, 1)  # each include or import runs it again
        return node

    def visit_For(self, node: jinja2.nodes.For) -> jinja2.nodes.Node:
        self.generic_visit(node)
        node.iter = self._filter(node.iter, _LOOP_FILTER)
        node.body = self._charged(node.body, node.lineno)
        return node

    def _body(self, node: jinja2.nodes.Macro) -> jinja2.nodes.Node:
        self.generic_visit(node)
        node.body = self._charged(node.body, node.lineno)
        return node

    visit_Macro = visit_CallBlock = visit_Block = _body

    def visit_Concat(self, node: jinja2.nodes.Concat) -> jinja2.nodes.Node:
        self.generic_visit(node)
        return self._filter(jinja2.nodes.Tuple(node.nodes, "load", lineno=node.lineno),
                            _CONCAT_FILTER)

    def visit_Compare(self, node: jinja2.nodes.Compare) -> jinja2.nodes.Node:
        self.generic_visit(node)
        node.expr = self._filter(node.expr, _SIZED_FILTER)
        for operand in node.ops:
            operand.expr = self._filter(operand.expr, _SIZED_FILTER)
        return node

    def visit_Getitem(self, node: jinja2.nodes.Getitem) -> jinja2.nodes.Node:
        # a slice copies (``s[1:]`` in a loop); an index does not
        self.generic_visit(node)
        if isinstance(node.arg, jinja2.nodes.Slice) and node.ctx == "load":
            return self._filter(node, _SIZED_FILTER)
        return node

    def _literal(self, node: jinja2.nodes.Expr) -> jinja2.nodes.Node:
        # ``[s, s, s, ...]`` of a long s: a literal can hold as many as the file has room
        self.generic_visit(node)
        if getattr(node, "ctx", "load") != "load":
            return node
        return self._filter(node, _MADE_FILTER)

    visit_List = visit_Tuple = visit_Dict = _literal


class _Buffer(list[str]):
    """Where a macro, a call block, a filter block or ``{% set %}`` collects its output.

    At most MAX_ITEMS characters, counted as each piece comes: a macro looping over a
    long string is stopped at once, not when it returns.
    """

    def __init__(self) -> None:
        super().__init__()
        self.size = 0

    def _grow(self, size: int) -> None:
        self.size += size
        if self.size > MAX_ITEMS:
            raise _too_big("an output", False)
        _spend(0, size)

    def append(self, chunk: str) -> None:
        """Add one piece of output."""
        self._grow(len(chunk))
        super().append(chunk)

    def extend(self, chunks: Iterable[str]) -> None:
        """Add several pieces of output."""
        chunks = list(chunks)
        self._grow(sum(map(len, chunks)))
        super().extend(chunks)


class _CodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja's compiler, on the template as ``_Meter`` rewrites it, with ``_Buffer``s."""

    def visit_Template(self, node: jinja2.nodes.Template,
                       frame: jinja2.compiler.Frame | None = None) -> None:
        """Rewrite the template (``_Meter``), then compile it as Jinja does."""
        _Meter().visit(node)
        super().visit_Template(node, frame)

    def visit_Include(self, node: jinja2.nodes.Include, frame: jinja2.compiler.Frame) -> None:
        """An include as a step, nested at most MAX_INCLUDE_DEPTH deep.

        A template that includes itself is refused with a message of its own, not
        Python's recursion error.
        """
        self.writeline("environment.nest_include(1)")
        self.writeline("try:")
        self.indent()
        super().visit_Include(node, frame)
        self.outdent()
        self.writeline("finally:")
        self.indent()
        self.writeline("environment.nest_include(-1)")
        self.outdent()

    def buffer(self, frame: jinja2.compiler.Frame) -> None:
        """Collect output in a ``_Buffer`` (Jinja uses a plain list)."""
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.new_buffer()")


def _joined(chunks: Iterable[str]) -> str:
    """Output a block or an import collects, at most MAX_ITEMS characters.

    Counted chunk by chunk, before anything is joined.
    """
    out: list[str] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_ITEMS:
            raise _too_big("an output", False)
        out.append(chunk)
    _spend(0, size)
    return "".join(out)


class _Template(jinja2.Template):
    """A template whose module (``import``) keeps at most MAX_ITEMS characters of output."""

    def make_module(self, vars: dict[str, Any] | None = None,  # noqa: A002
                    shared: bool = False,
                    locals: Mapping[str, Any] | None = None,  # noqa: A002
                    ) -> jinja2.environment.TemplateModule:
        """As Jinja's, with the body collected by ``_joined``."""
        context = self.new_context(vars, shared, locals)
        return jinja2.environment.TemplateModule(self, context,
                                                 [_joined(self.root_render_func(context))])


def _check_format(text: object) -> None:
    if isinstance(text, str) and _NUMBER_IN_FORMAT.search(text):
        raise TemplateRefused("a format with a width of 100,000 or more")


_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d*)(?:\.(?:\*|\d*))?[a-zA-Z%]")


def _percent_bound(fmt: str, values: Any) -> int:
    """Most characters ``fmt % values`` can make.

    Each field makes at most the longest value (as ``%a`` would print it) plus its width
    and precision.
    """
    args = list(values.values()) if isinstance(values, dict) else (
        list(values) if isinstance(values, tuple) else [values])
    _check_numbers(tuple(args))
    longest = max((len(ascii(arg)) if isinstance(arg, str) else 10 * _weight(arg)
                   for arg in args), default=0)
    bound = len(fmt)
    for field in _PERCENT_FIELD.findall(fmt):
        numbers = [int(n) for n in re.findall(r"\d+", field)]
        bound += longest + sum(numbers) + field.count("*") * MAX_ARGUMENT
    return bound


def _format_bound(fmt: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """Most characters ``fmt.format(*args, **kwargs)`` can make (as ``_percent_bound``)."""
    values = [*args, *kwargs.values()]
    if len(args) == 1 and isinstance(args[0], dict):  # format_map
        values += list(args[0].values())
    longest = max((10 * _weight(value) for value in values), default=0)
    bound = 0
    for literal, field, spec, _ in string.Formatter().parse(fmt):
        bound += len(literal)
        if field is not None:
            spec = spec or ""
            bound += (longest + sum(int(n) for n in re.findall(r"\d+", spec))
                      + spec.count("{") * MAX_ARGUMENT)
    return bound


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    """The ``format`` filter, without huge widths or results."""
    _check_format(value)
    fmt = soft_str(value)
    values = kwargs or args
    _predict(_percent_bound(fmt, values), "a formatted text")
    return fmt % values


def _check_method(method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
                  ) -> tuple[Any, ...]:
    """Refuse a string method call that would make a value above MAX_ITEMS, before it runs.

    Returns the arguments to call it with (``join`` reads its iterable once).
    """
    text = getattr(method, "__self__", None)
    name = getattr(method, "__name__", "")
    if not isinstance(text, str):
        return args
    if name == "replace" and len(args) >= 2:
        _predict(_replace_bound(text, args[0], args[1], args[2] if len(args) > 2
                                else kwargs.get("count", -1)), "a replaced text")
    elif name == "join" and args:
        items = list(args[0])
        _predict(sum(len(item) for item in items if isinstance(item, str))
                 + max(len(items) - 1, 0) * len(text), "a joined text")
        return (items, *args[1:])
    elif name == "expandtabs":
        tabsize = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(tabsize, int):
            _predict(len(text) + text.count("\t") * max(tabsize, 0), "an expanded text")
    elif name == "translate" and args:
        table = args[0]
        values = table.values() if isinstance(table, dict) else []
        longest = max((len(v) for v in values if isinstance(v, str)), default=1)
        _predict(len(text) * max(longest, 1), "a translated text")
    return args


def _replace_bound(text: str, old: Any, new: Any, count: Any) -> int:
    """Length of ``text.replace(old, new, count)`` (without making it)."""
    if not isinstance(old, str) or not isinstance(new, str):
        return len(text)
    found = len(text) + 1 if not old else text.count(old)
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(text) + found * max(len(new) - len(old), 0)


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, with work and sizes bounded and file objects opaque."""

    intercepted_binops = frozenset(["+", "-", "*", "/", "//", "**", "%"])
    code_generator_class = _CodeGenerator
    template_class = _Template
    concat = staticmethod(_joined)
    new_buffer = _Buffer

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """Also refuse looking inside paths, modules, files and classes."""
        return not isinstance(obj, _OPAQUE) and super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: jinja2.runtime.Context, operator_: str, left: Any,
                   right: Any) -> Any:
        """Arithmetic with results bounded before they are made."""
        _spend(1)
        if operator_ == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(count, int):
                    weight = _weight(seq) if isinstance(seq, str) else _weight(seq) - 1
                    if weight * count > MAX_ITEMS:
                        raise _too_big("a repetition", not isinstance(seq, str))
            if isinstance(left, int) and isinstance(right, int):
                _check_bits(abs(left).bit_length() + abs(right).bit_length())
        elif operator_ == "**":
            if isinstance(right, (int, float)) and abs(right) > 64:
                raise TemplateRefused("an exponent above 64")
            if isinstance(left, int) and isinstance(right, int):
                _check_bits(abs(left).bit_length() * max(right, 0))
        elif operator_ == "+" and isinstance(left, _SIZED) and isinstance(right, _SIZED):
            _predict(_weight(left) + _weight(right), "a sum")
        elif operator_ == "%" and isinstance(left, str):
            _check_format(left)
            _predict(_percent_bound(left, right), "a formatted text")
        return _made(self.binop_table[operator_](left, right))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` without huge widths or results."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt = value.__self__
        _check_format(fmt)

        @functools.wraps(wrapped)
        def bounded(*args: Any, **kwargs: Any) -> str:
            _check_numbers((*args, *kwargs.values()))
            _predict(_format_bound(fmt, args, kwargs), "a formatted text")
            return wrapped(*args, **kwargs)

        return bounded

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute``, as a step (the sandbox's checks cost as much as a call)."""
        _spend(1)
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        """``obj[argument]``, as a step."""
        _spend(1)
        return super().getitem(obj, argument)

    @staticmethod
    def nest_include(change: int) -> None:
        """Count an include going in (1, a step) or coming out (-1)."""
        budget = _BUDGET.get()
        if budget is None:
            return
        if change > 0:
            _spend(1)
            if budget.includes >= MAX_INCLUDE_DEPTH:
                raise TemplateRefused(f"includes nested more than {MAX_INCLUDE_DEPTH} deep")
        budget.includes += change

    def get_template(self, name: str | jinja2.Template, parent: str | None = None,
                     globals: MutableMapping[str, Any] | None = None,  # noqa: A002
                     ) -> jinja2.Template:
        """A template; while rendering, each include, import or extends is a step."""
        _spend(1)
        return super().get_template(name, parent, globals)

    def call(__self, __context: jinja2.runtime.Context, __obj: Any,  # noqa: N805
             *args: Any, **kwargs: Any) -> Any:
        """A call, as a step (a macro call as MACRO_STEPS), its result weighed.

        Huge numbers as arguments (``'x'.center(10**9)``), string methods that would
        make a value above MAX_ITEMS and macro calls nested deeper than MAX_DEPTH are
        refused.
        """
        # a method works on its object (``s.count('b')`` reads all of s) and its arguments
        _spend(1, len(args) + len(kwargs) + _size(getattr(__obj, "__self__", None))
               + sum(_size(a) for a in (*args, *kwargs.values())))
        if __obj is not _range:
            _check_numbers((*args, *kwargs.values()))
        if isinstance(__obj, jinja2.runtime.LoopContext) and args:
            args = (_loop_items(args[0]), *args[1:])  # a recursive loop's next level
        args = _check_method(__obj, args, kwargs)
        budget = _BUDGET.get()
        nests = (jinja2.runtime.Macro, jinja2.runtime.LoopContext)
        if budget is None or not isinstance(__obj, nests):
            return _made(super().call(__context, __obj, *args, **kwargs))
        _spend(MACRO_STEPS - 1)
        if budget.depth >= MAX_DEPTH:
            raise TemplateRefused(f"calls of macros and recursive loops nested more than "
                                  f"{MAX_DEPTH} deep")
        budget.depth += 1
        try:
            return _made(super().call(__context, __obj, *args, **kwargs))
        finally:
            budget.depth -= 1


def _check_bits(bits: int) -> None:
    if bits > MAX_INT_BITS:
        raise TemplateRefused(f"a number of more than {MAX_INT_BITS:,} bits")


def _check_numbers(values: tuple[Any, ...]) -> None:
    for value in values:
        if isinstance(value, int) and abs(value) > MAX_ARGUMENT:
            raise TemplateRefused(f"the number {value} as an argument, above "
                                  f"{MAX_ARGUMENT:,}")


def _bounded(func: Callable[..., Any]) -> Callable[..., Any]:
    """A built-in filter that refuses huge numeric arguments (``center(10**9)``)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = [a for a in args if not isinstance(a, _PASSED)]
        _check_numbers((*given[1:], *kwargs.values()))
        return func(*args, **kwargs)

    return wrapper


_PASSED = (jinja2.Environment, jinja2.nodes.EvalContext, jinja2.runtime.Context)
"""What Jinja passes a filter before its value (``pass_environment`` and the like)."""


def _metered_filter(func: Callable[..., Any]) -> Callable[..., Any]:
    """A filter or test as a step, the sizes of its arguments charged as work.

    Its result is weighed: a filter that makes a list or text above MAX_ITEMS is refused.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _spend(1, sum(_size(a) for a in (*args, *kwargs.values())))
        return _made(func(*args, **kwargs))

    return wrapper


@jinja2.pass_eval_context
def _join(eval_ctx: jinja2.nodes.EvalContext, value: Any, d: str = "",
          attribute: str | int | None = None) -> str:
    """The ``join`` filter, its result's length added up before joining."""
    if attribute is not None:
        value = map(jinja2.filters.make_attrgetter(eval_ctx.environment, attribute), value)
    items = [soft_str(item) for item in value]
    _predict(sum(map(len, items)) + max(len(items) - 1, 0) * len(soft_str(d)),
             "a joined text")
    return jinja2.filters.sync_do_join(eval_ctx, items, d)


@jinja2.pass_eval_context
def _replace(eval_ctx: jinja2.nodes.EvalContext, s: str, old: str, new: str,
             count: int | None = None) -> str:
    """The ``replace`` filter, its result's length worked out before replacing."""
    _predict(_replace_bound(soft_str(s), soft_str(old), soft_str(new),
                            -1 if count is None else count), "a replaced text")
    return jinja2.filters.do_replace(eval_ctx, s, old, new, count)


def _indent(s: str, width: int | str = 4, first: bool = False, blank: bool = False) -> str:
    """The ``indent`` filter, its result's length worked out before indenting."""
    prefix = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    text = soft_str(s)
    _predict(len(text) + (text.count("\n") + 1) * max(prefix, 0), "an indented text")
    return jinja2.filters.do_indent(s, width, first, blank)


@jinja2.pass_environment
def _wordwrap(environment: jinja2.Environment, s: str, width: int = 79,
              break_long_words: bool = True, wrapstring: str | None = None,
              break_on_hyphens: bool = True) -> str:
    """The ``wordwrap`` filter with a sane width and bounded work.

    Python's textwrap breaks a long word by slicing it over and over, so ``wordwrap(1)``
    on a long word costs its length squared.
    """
    text = soft_str(s)
    if isinstance(width, (int, float)) and width < MIN_WRAP_WIDTH:
        raise TemplateRefused(f"a wordwrap width of {width}, below {MIN_WRAP_WIDTH}")
    if len(text) > MAX_WRAP_CHARS:
        raise TemplateRefused(f"a wordwrap of {len(text):,} characters, above "
                              f"{MAX_WRAP_CHARS:,}")
    lines = (int(2 * len(text) // max(width, 1)) + 2 if isinstance(width, (int, float))
             else len(text))
    _predict(len(text) + lines * len(wrapstring or "\n"), "a wrapped text")
    return jinja2.filters.do_wordwrap(environment, s, width, break_long_words, wrapstring,
                                      break_on_hyphens)


@jinja2.pass_environment
def _sum(environment: jinja2.Environment, iterable: Any,
         attribute: str | int | None = None, start: Any = 0) -> Any:
    """The ``sum`` filter, lists joined in one pass.

    Adding lists up pair by pair, as Python's ``sum`` does, takes time that grows with
    the square of their number.
    """
    if attribute is not None:
        iterable = map(jinja2.filters.make_attrgetter(environment, attribute), iterable)
    items = list(iterable)
    if not isinstance(start, (list, tuple)):
        return sum(items, start)
    if not all(isinstance(item, type(start)) for item in items):
        raise TypeError(f"can only add {type(start).__name__} to a "
                        f"{type(start).__name__} start")
    _predict(sum(_weight(item) for item in (start, *items)), "a sum")
    joined = [*start, *(part for item in items for part in item)]
    return joined if isinstance(start, list) else tuple(joined)


@jinja2.pass_eval_context
def _urlize(eval_ctx: jinja2.nodes.EvalContext, value: str, *args: Any,
            **kwargs: Any) -> str:
    """The ``urlize`` filter, its result's length bounded before it runs.

    Each word may become a link that repeats ``target`` and ``rel``.
    """
    extra = sum(len(v) for v in (*args, *kwargs.values()) if isinstance(v, str))
    text = soft_str(value)
    _predict(3 * len(text) + (len(text) // 2 + 1) * (extra + 64), "a text with links")
    return jinja2.filters.do_urlize(eval_ctx, value, *args, **kwargs)


_CHECKED_FILTERS: dict[str, Callable[..., Any]] = {
    "join": _join, "replace": _replace, "indent": _indent, "wordwrap": _wordwrap,
    "sum": _sum, "urlize": _urlize, "format": _format,
}
"""Built-in filters replaced by ones that work out their result's size first."""
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
    env.globals["lipsum"] = _lipsum
    env.globals["namespace"] = _Namespace
    env.filters.update(_CHECKED_FILTERS)
    for name in BOUNDED_FILTERS:
        env.filters[name] = _bounded(env.filters[name])
    env.filters["thousands"] = _thousands
    env.filters["signed"] = _signed
    env.filters["oneline"] = _oneline
    env.filters["g"] = _g
    for table in (env.filters, env.tests):
        for name, func in list(table.items()):
            table[name] = _metered_filter(func)
    env.filters[_LOOP_FILTER] = _loop_filter
    env.filters[_CONCAT_FILTER] = _concat_filter
    env.filters[_SIZED_FILTER] = _sized_filter
    env.filters[_MADE_FILTER] = _made_filter
    env.filters[_CHARGE_FILTER] = _charge_filter
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
    budget = _BUDGET.set(_Budget())
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
        _BUDGET.reset(budget)


def _filename(env: jinja2.Environment, name: str) -> str:
    """The file a template name stands for (for messages)."""
    token = _BUDGET.set(None)  # looking it up again is not the template's spending
    try:
        return env.get_template(name).filename or name
    except (jinja2.TemplateError, DataError):
        return name
    finally:
        _BUDGET.reset(token)


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
    for entity in _ENTITY.finditer(text):
        if _entity_char(entity.group(1)) is None:
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


def _entity_char(reference: str) -> str | None:
    """The character a ``&...;`` reference names (its inside given).

    None for a number past Unicode's last code point or a surrogate (ReportLab fails on
    them).
    """
    if not reference.startswith("#"):
        return reference
    number = int(reference[2:], 16) if reference[1:2] in "xX" else int(reference[1:])
    if number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return None
    return chr(number)


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
        if entity and _entity_char(entity.group(1)) is not None:  # else printed as text
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

    from generator.pages.tablestyle import Anchor, styles

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
