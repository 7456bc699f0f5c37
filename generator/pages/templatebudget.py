"""What one template rendering may spend, and the metering that charges it.

Jinja2's sandbox keeps a template away from Python's internals but not from work: a
macro calling itself twice 40 levels deep, a loop over a long string inside another,
a string doubled in a loop. Every rendering therefore gets a budget (``Budget``):

- a *step* for each call (macro, filter, test, method, global), operator, attribute,
  loop item and include, and for every BODY_NODES nodes of template text a loop item,
  macro call, block or include runs: MAX_STEPS in all;
- *work* for each character a step builds, copies, compares or passes on (an item of
  a list or dict counting ITEM_WEIGHT): MAX_WORK in all;
- no value a template makes may weigh more than MAX_ITEMS characters, checked *before*
  an operation that multiplies sizes (``*``, ``+``, ``~``, ``%``, ``format``,
  ``replace``, ``join``, ``indent``, ``wordwrap``, ...) and after every other one, so a
  list of many references to one long string cannot be printed either;
- macro calls and recursive loops nest at most MAX_DEPTH deep, includes
  MAX_INCLUDE_DEPTH.

Loops, ``~``, comparisons, slices and literal lists are metered by rewriting the
parsed template (``_Meter``) so they pass through the metering filters here; calls and
operators through the sandbox's own hooks (``generator.pages.templatesandbox``); output
a macro, block or ``{% set %}`` collects through ``OutputBuffer`` and ``joined``.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from typing import Any

import jinja2
from markupsafe import Markup, soft_str

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
MAX_ARGUMENT = 100_000
"""Largest number passed to a method or as an exponent (``'x'.ljust(10**9)`` is refused)."""

@dataclasses.dataclass
class Budget:
    """What one rendering may still spend, and how deep its macro calls are nested."""

    steps: int = MAX_STEPS
    work: int = MAX_WORK
    depth: int = 0
    includes: int = 0


BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("template_budget",
                                                                        default=None)
"""The budget of the rendering under way (None while compiling or outside one)."""


class TemplateRefused(jinja2.exceptions.SecurityError):
    """A template asked for more than a template may (size, time, or Python internals)."""

SIZED = (str, bytes, list, tuple, dict, set, frozenset, range, KeysView, ValuesView,
          ItemsView)
_SCALARS = {int, float, bool, type(None)}
_LOOP_FILTER = "qd.loop"
_CONCAT_FILTER = "qd.concat"
_SIZED_FILTER = "qd.sized"
_MADE_FILTER = "qd.made"
_CHARGE_FILTER = "qd.charge"


def spend(steps: int = 1, work: int = 0) -> None:
    """Charge the current rendering; refuse once it has spent its budget."""
    budget = BUDGET.get()
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


def size_cost(value: Any) -> int:
    """What passing a value to a filter or method, comparing or slicing it costs.

    Its length, each item of a list or dict counting ITEM_WEIGHT.
    """
    if isinstance(value, (str, bytes)):
        return len(value)
    return ITEM_WEIGHT * len(value) if isinstance(value, SIZED) else 0


def weigh(value: Any, memo: dict[int, int] | None = None, depth: int = 0) -> int:
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
        total += ITEM_WEIGHT + weigh(item, memo, depth + 1)
        if total > MAX_ITEMS:
            break
    memo[key] = total
    return total


def too_big(what: str = "a value", items: bool = True) -> TemplateRefused:
    """The refusal of a value above MAX_ITEMS (``items``: one that may be a list)."""
    counting = f" (an item of a list or dict counting {ITEM_WEIGHT})" if items else ""
    return TemplateRefused(f"{what} of more than {MAX_ITEMS:,} characters{counting}")


def made_value(value: Any) -> Any:
    """A value the template just made, refused when too big, its size charged as work."""
    if isinstance(value, jinja2.runtime.Undefined):
        return value
    weight = weigh(value)
    if weight > MAX_ITEMS:
        raise too_big()
    spend(0, weight)
    return value


def predict(size: int, what: str = "a value") -> None:
    """Refuse an operation before it makes a value ``size`` long (a text but for a sum)."""
    if size > MAX_ITEMS:
        raise too_big(what, what == "a sum")
    spend(0, size)


def loop_items(iterable: Any) -> Any:
    """What a ``for`` loop walks, a step per item.

    A sized value (a string, list, dict or range) is charged up front, anything else (a
    generator) item by item.
    """
    if isinstance(iterable, SIZED):
        spend(len(iterable))
        return iterable
    if isinstance(iterable, jinja2.runtime.Undefined):
        return iterable
    return _metered(iter(iterable))


def _metered(items: Iterator[Any]) -> Iterator[Any]:
    for item in items:
        spend(1)
        yield item


@jinja2.pass_context
def _loop_filter(context: jinja2.runtime.Context, iterable: Any) -> Any:
    # pass_context keeps the compiler from running it at compile time (constant folding)
    return loop_items(iterable)


def _made_filter(value: Any) -> Any:
    """A literal list, tuple or dict: a step, and ``made_value``."""
    spend(1)
    return made_value(value)


@jinja2.pass_eval_context
def _concat_filter(eval_ctx: jinja2.nodes.EvalContext, parts: tuple[Any, ...]) -> str:
    """``a ~ b ~ c``: a step, the sizes added up before the text is joined."""
    spend(1)
    texts = [soft_str(part) for part in parts]
    predict(sum(map(len, texts)), "a joined text")
    joined = (jinja2.runtime.markup_join(texts) if eval_ctx.autoescape
              else jinja2.runtime.str_join(texts))
    return str(made_value(joined)) if not isinstance(joined, Markup) else made_value(joined)


def _sized_filter(value: Any) -> Any:
    """A compared or sliced value: a step, its length charged as work."""
    spend(1, size_cost(value))
    return value


@jinja2.pass_context
def _charge_filter(context: jinja2.runtime.Context, steps: int) -> str:
    """Charge the steps a body costs (``_Meter._charged``); prints nothing."""
    spend(steps)
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


class OutputBuffer(list[str]):
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
            raise too_big("an output", False)
        spend(0, size)

    def append(self, chunk: str) -> None:
        """Add one piece of output."""
        self._grow(len(chunk))
        super().append(chunk)

    def extend(self, chunks: Iterable[str]) -> None:
        """Add several pieces of output."""
        chunks = list(chunks)
        self._grow(sum(map(len, chunks)))
        super().extend(chunks)


class MeteredCodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja's compiler, on the template as ``_Meter`` rewrites it, with ``OutputBuffer``s."""

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
        """Collect output in a ``OutputBuffer`` (Jinja uses a plain list)."""
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.new_buffer()")


def join_output(chunks: Iterable[str]) -> str:
    """Output a block or an import collects, at most MAX_ITEMS characters.

    Counted chunk by chunk, before anything is joined.
    """
    out: list[str] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_ITEMS:
            raise too_big("an output", False)
        out.append(chunk)
    spend(0, size)
    return "".join(out)


class MeteredTemplate(jinja2.Template):
    """A template whose module (``import``) keeps at most MAX_ITEMS characters of output."""

    def make_module(self, vars: dict[str, Any] | None = None,  # noqa: A002
                    shared: bool = False,
                    locals: Mapping[str, Any] | None = None,  # noqa: A002
                    ) -> jinja2.environment.TemplateModule:
        """As Jinja's, with the body collected by ``join_output``."""
        context = self.new_context(vars, shared, locals)
        return jinja2.environment.TemplateModule(self, context,
                                                 [join_output(self.root_render_func(context))])


def check_bits(bits: int) -> None:
    """Refuse an integer of more than MAX_INT_BITS bits before it is made."""
    if bits > MAX_INT_BITS:
        raise TemplateRefused(f"a number of more than {MAX_INT_BITS:,} bits")


def check_numbers(values: tuple[Any, ...]) -> None:
    """Refuse a huge number as an argument (``'x'.center(10**9)``) before the call."""
    for value in values:
        if isinstance(value, int) and abs(value) > MAX_ARGUMENT:
            raise TemplateRefused(f"the number {value} as an argument, above "
                                  f"{MAX_ARGUMENT:,}")


def _metered_filter(func: Callable[..., Any]) -> Callable[..., Any]:
    """A filter or test as a step, the sizes of its arguments charged as work.

    Its result is weighed: a filter that makes a list or text above MAX_ITEMS is refused.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        spend(1, sum(size_cost(a) for a in (*args, *kwargs.values())))
        return made_value(func(*args, **kwargs))

    return wrapper



def meter_filters(env: jinja2.Environment) -> None:
    """Make every filter and test of ``env`` a step, and add the metering filters.

    Call it once the environment has all its own filters: those added later are not
    metered (the metering filters themselves must not be).
    """
    for table in (env.filters, env.tests):
        for name, func in list(table.items()):
            table[name] = _metered_filter(func)
    env.filters[_LOOP_FILTER] = _loop_filter
    env.filters[_CONCAT_FILTER] = _concat_filter
    env.filters[_SIZED_FILTER] = _sized_filter
    env.filters[_MADE_FILTER] = _made_filter
    env.filters[_CHARGE_FILTER] = _charge_filter
