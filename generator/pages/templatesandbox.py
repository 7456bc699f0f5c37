"""The sandboxed Jinja2 environment every template runs in.

Jinja2's immutable sandbox, with each call, operator and attribute charged to the
rendering's budget (``generator.pages.templatebudget``), results that multiply sizes
(``*``, ``%``, ``format``, ``replace``, ``join``, ``wordwrap``...) bounded before they
are made, paths, modules, files and classes opaque, and the filters quarterdeck's
templates add (``thousands``, ``signed``, ``oneline``, ``g``).
"""

from __future__ import annotations

import functools
import io
import re
import string
import types
from collections.abc import Callable, MutableMapping
from pathlib import PurePath
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import soft_str

from generator.pages.templatebudget import (
    BUDGET,
    ITEM_WEIGHT,
    MACRO_STEPS,
    MAX_ARGUMENT,
    MAX_DEPTH,
    MAX_INCLUDE_DEPTH,
    MAX_ITEMS,
    SIZED,
    MeteredCodeGenerator,
    MeteredTemplate,
    OutputBuffer,
    TemplateRefused,
    check_bits,
    check_numbers,
    join_output,
    loop_items,
    made_value,
    meter_filters,
    predict,
    size_cost,
    spend,
    too_big,
    weigh,
)

MIN_WRAP_WIDTH = 10
"""Narrowest ``wordwrap`` width: a narrower one makes a line per character or two."""
MAX_WRAP_CHARS = 50_000
"""Longest text ``wordwrap`` takes (breaking a long word costs its length squared over the
width)."""
MAX_LIPSUM_WORDS = 10_000
"""Most words ``lipsum`` may make (paragraphs times the most words in one)."""

_OPAQUE = (PurePath, types.ModuleType, io.IOBase, type)
"""Objects a template may print but not look inside (no ``path.read_text()``)."""
_NUMBER_IN_FORMAT = re.compile(r"\d{6,}")

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
    spend(int(n * max) if numbers else 1)  # a step a word
    return jinja2.utils.generate_lorem_ipsum(n, html, min, max)


class _Namespace(jinja2.utils.Namespace):
    """``namespace()`` whose attributes together stay within MAX_ITEMS.

    Each assignment is a step, and ``ns.s = ns.s ~ ns.s`` in a loop is refused, not
    left to grow.
    """

    def __setitem__(self, name: str, value: Any) -> None:
        spend(1)
        super().__setitem__(name, value)
        made_value(self)


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
    check_numbers(tuple(args))
    longest = max((len(ascii(arg)) if isinstance(arg, str) else 10 * weigh(arg)
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
    longest = max((10 * weigh(value) for value in values), default=0)
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
    predict(_percent_bound(fmt, values), "a formatted text")
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
        predict(_replace_bound(text, args[0], args[1], args[2] if len(args) > 2
                                else kwargs.get("count", -1)), "a replaced text")
    elif name == "join" and args:
        items = list(args[0])
        predict(sum(len(item) for item in items if isinstance(item, str))
                 + max(len(items) - 1, 0) * len(text), "a joined text")
        return (items, *args[1:])
    elif name == "expandtabs":
        tabsize = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(tabsize, int):
            predict(len(text) + text.count("\t") * max(tabsize, 0), "an expanded text")
    elif name == "translate" and args:
        table = args[0]
        values = table.values() if isinstance(table, dict) else []
        longest = max((len(v) for v in values if isinstance(v, str)), default=1)
        predict(len(text) * max(longest, 1), "a translated text")
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
    code_generator_class = MeteredCodeGenerator
    template_class = MeteredTemplate
    concat = staticmethod(join_output)
    new_buffer = OutputBuffer

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """Also refuse looking inside paths, modules, files and classes."""
        return not isinstance(obj, _OPAQUE) and super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: jinja2.runtime.Context, operator_: str, left: Any,
                   right: Any) -> Any:
        """Arithmetic with results bounded before they are made."""
        spend(1)
        if operator_ == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(count, int):
                    weight = weigh(seq) if isinstance(seq, str) else weigh(seq) - 1
                    if weight * count > MAX_ITEMS:
                        raise too_big("a repetition", not isinstance(seq, str))
            if isinstance(left, int) and isinstance(right, int):
                check_bits(abs(left).bit_length() + abs(right).bit_length())
        elif operator_ == "**":
            if isinstance(right, (int, float)) and abs(right) > 64:
                raise TemplateRefused("an exponent above 64")
            if isinstance(left, int) and isinstance(right, int):
                check_bits(abs(left).bit_length() * max(right, 0))
        elif operator_ == "+" and isinstance(left, SIZED) and isinstance(right, SIZED):
            predict(weigh(left) + weigh(right), "a sum")
        elif operator_ == "%" and isinstance(left, str):
            _check_format(left)
            predict(_percent_bound(left, right), "a formatted text")
        return made_value(self.binop_table[operator_](left, right))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` without huge widths or results."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt = value.__self__
        _check_format(fmt)

        @functools.wraps(wrapped)
        def bounded(*args: Any, **kwargs: Any) -> str:
            check_numbers((*args, *kwargs.values()))
            predict(_format_bound(fmt, args, kwargs), "a formatted text")
            return wrapped(*args, **kwargs)

        return bounded

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute``, as a step (the sandbox's checks cost as much as a call)."""
        spend(1)
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        """``obj[argument]``, as a step."""
        spend(1)
        return super().getitem(obj, argument)

    @staticmethod
    def nest_include(change: int) -> None:
        """Count an include going in (1, a step) or coming out (-1)."""
        budget = BUDGET.get()
        if budget is None:
            return
        if change > 0:
            spend(1)
            if budget.includes >= MAX_INCLUDE_DEPTH:
                raise TemplateRefused(f"includes nested more than {MAX_INCLUDE_DEPTH} deep")
        budget.includes += change

    def get_template(self, name: str | jinja2.Template, parent: str | None = None,
                     globals: MutableMapping[str, Any] | None = None,  # noqa: A002
                     ) -> jinja2.Template:
        """A template; while rendering, each include, import or extends is a step."""
        spend(1)
        return super().get_template(name, parent, globals)

    def call(__self, __context: jinja2.runtime.Context, __obj: Any,  # noqa: N805
             *args: Any, **kwargs: Any) -> Any:
        """A call, as a step (a macro call as MACRO_STEPS), its result weighed.

        Huge numbers as arguments (``'x'.center(10**9)``), string methods that would
        make a value above MAX_ITEMS and macro calls nested deeper than MAX_DEPTH are
        refused.
        """
        # a method works on its object (``s.count('b')`` reads all of s) and its arguments
        spend(1, len(args) + len(kwargs) + size_cost(getattr(__obj, "__self__", None))
               + sum(size_cost(a) for a in (*args, *kwargs.values())))
        if __obj is not _range:
            check_numbers((*args, *kwargs.values()))
        if isinstance(__obj, jinja2.runtime.LoopContext) and args:
            args = (loop_items(args[0]), *args[1:])  # a recursive loop's next level
        args = _check_method(__obj, args, kwargs)
        budget = BUDGET.get()
        nests = (jinja2.runtime.Macro, jinja2.runtime.LoopContext)
        if budget is None or not isinstance(__obj, nests):
            return made_value(super().call(__context, __obj, *args, **kwargs))
        spend(MACRO_STEPS - 1)
        if budget.depth >= MAX_DEPTH:
            raise TemplateRefused(f"calls of macros and recursive loops nested more than "
                                  f"{MAX_DEPTH} deep")
        budget.depth += 1
        try:
            return made_value(super().call(__context, __obj, *args, **kwargs))
        finally:
            budget.depth -= 1


def _bounded(func: Callable[..., Any]) -> Callable[..., Any]:
    """A built-in filter that refuses huge numeric arguments (``center(10**9)``)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = [a for a in args if not isinstance(a, _PASSED)]
        check_numbers((*given[1:], *kwargs.values()))
        return func(*args, **kwargs)

    return wrapper


_PASSED = (jinja2.Environment, jinja2.nodes.EvalContext, jinja2.runtime.Context)
"""What Jinja passes a filter before its value (``pass_environment`` and the like)."""


@jinja2.pass_eval_context
def _join(eval_ctx: jinja2.nodes.EvalContext, value: Any, d: str = "",
          attribute: str | int | None = None) -> str:
    """The ``join`` filter, its result's length added up before joining."""
    if attribute is not None:
        value = map(jinja2.filters.make_attrgetter(eval_ctx.environment, attribute), value)
    items = [soft_str(item) for item in value]
    predict(sum(map(len, items)) + max(len(items) - 1, 0) * len(soft_str(d)),
             "a joined text")
    return jinja2.filters.sync_do_join(eval_ctx, items, d)


@jinja2.pass_eval_context
def _replace(eval_ctx: jinja2.nodes.EvalContext, s: str, old: str, new: str,
             count: int | None = None) -> str:
    """The ``replace`` filter, its result's length worked out before replacing."""
    predict(_replace_bound(soft_str(s), soft_str(old), soft_str(new),
                            -1 if count is None else count), "a replaced text")
    return jinja2.filters.do_replace(eval_ctx, s, old, new, count)


def _indent(s: str, width: int | str = 4, first: bool = False, blank: bool = False) -> str:
    """The ``indent`` filter, its result's length worked out before indenting."""
    prefix = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    text = soft_str(s)
    predict(len(text) + (text.count("\n") + 1) * max(prefix, 0), "an indented text")
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
    predict(len(text) + lines * len(wrapstring or "\n"), "a wrapped text")
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
    predict(sum(weigh(item) for item in (start, *items)), "a sum")
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
    predict(3 * len(text) + (len(text) // 2 + 1) * (extra + 64), "a text with links")
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



def sandbox(loader: jinja2.BaseLoader, escape: bool) -> jinja2.Environment:
    """A sandboxed environment reading templates through ``loader``.

    Args:
        loader: Where templates come from.
        escape: XML-escape values (for text that becomes PDF paragraphs).

    """
    env = _Sandbox(
        loader=loader,
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
    meter_filters(env)  # last: every filter above, and Jinja's own, charged as a step
    return env
