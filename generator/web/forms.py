"""Web forms made from the click commands' own parameters, and form answers made argv.

A command's form is never written by hand: each parameter the command declares (its
type, choices, range, default and help) becomes one field, so an option added to a
command appears in the browser by itself. What a browser may not choose is left out or
set by the server: file and folder paths (the data folder and the output are the
server's; a folder option whose help begins "Also write" becomes a checkbox that writes
into the job's own folder), hidden options and ``--quiet``. The answers go back through
click itself (``Command.make_context``), so a bad value gets click's own message, shown
beside its field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import click

ALSO_WRITE = "Also write"
"""How the help of a folder option that writes extra files begins (``--png``, ``--tts``)."""
SKIPPED = frozenset({"quiet", "help"})
"""Parameters that say how the terminal looks: a page has no use for them."""
MAX_TEXT = 400
"""The longest text a field takes (a roll list, a force of ships)."""


@dataclass(frozen=True)
class Field:
    """One field of a command's form, as the page template draws it."""

    name: str
    """The parameter's name (the form field's name and the element's id)."""
    label: str
    """What the field is called on the page: the option as typed, without its dashes."""
    kind: str
    """``text``, ``select``, ``checkbox``, ``number`` or ``also`` (a checkbox for a folder)."""
    help: str = ""
    required: bool = False
    default: str = ""
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    step: str = "1"
    suggestions: tuple[str, ...] = ()
    """Values the page offers while typing (scenario ids, class ids), never enforced."""


@dataclass
class Form:
    """A command's fields, and what the server itself adds to its command line."""

    command: str
    title: str
    fields: list[Field] = field(default_factory=list)
    takes_data: bool = False
    """Whether the command has ``--data`` (the server passes its data folder)."""
    takes_out: bool = False
    """Whether the command has ``--out`` for a folder (the server passes the job's folder)."""


def _label(param: click.Parameter) -> str:
    """A parameter's label on the page: the option as typed, without dashes."""
    if isinstance(param, click.Option):
        longest = max(param.opts, key=len)
        return longest.lstrip("-").replace("-", " ")
    return (param.human_readable_name or str(param.name)).lower().replace("_", " ")


_UNSET = getattr(click.core, "UNSET", None)
"""click 8.2+ marks a parameter with no default by this sentinel (never shown as a value)."""


def _default(param: click.Parameter) -> str:
    """A parameter's default as a field shows it (empty when it has none)."""
    value = param.default
    if value is None or value is _UNSET or callable(value) \
            or isinstance(value, bool | tuple | list):
        return ""
    return str(value)


def _path_field(param: click.Parameter) -> Field | None:
    """A path parameter's field: only an 'Also write' folder, as a checkbox."""
    text = getattr(param, "help", None) or ""
    kind = param.type
    if isinstance(param, click.Option) and isinstance(kind, click.Path) \
            and not kind.file_okay and text.startswith(ALSO_WRITE):
        return Field(str(param.name), _label(param), "also", help=text)
    return None


def field_of(param: click.Parameter, suggestions: Mapping[str, Sequence[str]]) -> Field | None:
    """The field for one parameter, or None when a browser may not set it."""
    name = str(param.name)
    if name in SKIPPED or getattr(param, "hidden", False) or param.multiple \
            or (param.nargs != 1 and not (isinstance(param, click.Option) and param.is_flag)):
        return None
    if isinstance(param.type, click.Path | click.File):
        return _path_field(param)
    text = (getattr(param, "help", None) or "").strip()
    common = {"name": name, "label": _label(param), "help": text,
              "required": bool(param.required), "default": _default(param),
              "suggestions": tuple(suggestions.get(name, ()))}
    if isinstance(param, click.Option) and param.is_flag:
        return Field(kind="checkbox", **common)  # type: ignore[arg-type]
    kind = param.type
    if isinstance(kind, click.Choice):
        return Field(kind="select", choices=tuple(str(c) for c in kind.choices),
                     **common)  # type: ignore[arg-type]
    if isinstance(kind, click.IntRange | click.FloatRange):
        # click.IntRange and FloatRange keep their bounds as min and max.
        low, high = kind.min, kind.max
        return Field(kind="number", low=low, high=high,
                     step="1" if isinstance(kind, click.IntRange) else "any",
                     **common)  # type: ignore[arg-type]
    if isinstance(kind, click.types.IntParamType):
        return Field(kind="number", **common)  # type: ignore[arg-type]
    if isinstance(kind, click.types.FloatParamType):
        return Field(kind="number", step="any", **common)  # type: ignore[arg-type]
    return Field(kind="text", **common)  # type: ignore[arg-type]


def form_of(command: click.Command, name: str,
            suggestions: Mapping[str, Sequence[str]] | None = None) -> Form:
    """The whole form of one command, its fields in the order the command declares them."""
    made = Form(name, (command.get_short_help_str(limit=120) or name).rstrip("."))
    spoken = _spoken(command)
    for param in command.params:
        if param.name == "data":
            made.takes_data = True
            continue
        if param.name == "out":
            made.takes_out = isinstance(param.type, click.Path) and not param.type.file_okay
            continue
        one = field_of(param, suggestions or {})
        if one is not None:
            made.fields.append(replace(one, help=spoken(one.help)))
    made.title = spoken(made.title, True)
    return made


_VERBS = ("Build", "Print", "Write", "for", "of")
"""Words after which an argument's name reads as "the scenario" rather than "scenario"."""


def _spoken(command: click.Command) -> Callable[..., str]:
    """Words for a page from a command's help: options by their field's label, no paths.

    The help is written for a terminal (``--class``, ``SCENARIO``, ``OUT/<scenario>/``);
    a page names its fields as it labels them and writes where the downloads are.
    """
    options = {opt: _label(p) for p in command.params if isinstance(p, click.Option)
               for opt in p.opts if opt.startswith("--")}
    arguments = [str(p.name) for p in command.params if isinstance(p, click.Argument)]
    metavars = {str(p.name).upper(): _label(p) for p in command.params
                if isinstance(p, click.Option)}

    def said(text: str, title: bool = False) -> str:
        """``text`` in a page's words (``title``: a command's summary line)."""
        text = re.sub(r"(,| into) OUT/\S*?(?=[ )]|$)", "", text)
        text = text.replace(" in the terminal", "")
        text = re.sub(r"--[a-z][a-z0-9-]*",
                      lambda m: f"'{options[m.group()]}'" if m.group() in options
                      else m.group(), text)
        for name in arguments:
            upper = name.upper()
            text = re.sub(rf"\b({'|'.join(_VERBS)}) {upper}\b", rf"\1 the {name}", text)
            text = re.sub(rf"\b{upper}\b", name.replace("_", " "), text)
        if title:  # a summary names an option's value by its name: STACK, HITS
            text = re.sub(r"\b[A-Z][A-Z_]+\b",
                          lambda m: f"'{metavars[m.group()]}'" if m.group() in metavars
                          else m.group(), text)
        return text

    return said


class FormError(Exception):
    """A form's answer that its command refuses: the message and the field it belongs to."""

    def __init__(self, message: str, field: str | None = None) -> None:
        """``message`` as click words it; ``field`` the parameter it is about."""
        super().__init__(message)
        self.message = message
        self.field = field


def argv_of(command: click.Command, form: Form, answers: Mapping[str, str],
            job_folder: Path | None = None, data: Sequence[Path] = ()) -> list[str]:
    """The command line (after the command's name) a form's answers stand for.

    Empty answers are left out (the command's default applies); the server adds its data
    folders and, for a command that writes, the job's folder. The line is parsed by the
    command itself before anything runs: a value click refuses raises ``FormError`` with
    click's own message and the field it is about.
    """
    params = {str(p.name): p for p in command.params}
    options: list[str] = []
    positional: list[str] = []
    for one in form.fields:
        value = answers.get(one.name, "")
        if len(value) > MAX_TEXT:
            raise FormError(f"found {len(value)} characters, expected at most {MAX_TEXT}",
                            one.name)
        if "\0" in value:
            raise FormError("found a NUL character, expected text", one.name)
        param = params[one.name]
        if one.kind in ("checkbox", "also"):
            if value in ("on", "true", "1") and (one.kind == "checkbox" or job_folder):
                options.append(_flag(param))
                if one.kind == "also" and job_folder is not None:
                    options.append(str(job_folder / one.name))
            continue
        value = value.strip()
        if not value:
            continue
        if isinstance(param, click.Argument):
            positional.append(value)
        else:  # --name=value: a value such as '-3' stays the option's value
            options.append(f"{_flag(param)}={value}")
    given: dict[str, str | list[str]] = {}
    if form.takes_data:
        given["data"] = [str(folder) for folder in data]
    if form.takes_out and job_folder is not None:
        given["out"] = str(job_folder)
    extra = option_line(command, given)
    # Arguments after '--', so a value such as '-x' is a value, never an option.
    line = [*options, *extra, "--", *positional] if positional else [*options, *extra]
    parse(command, form.command, line)
    return line


def option_line(command: click.Command, values: Mapping[str, str | Sequence[str]]) -> list[str]:
    """``--option=value`` for each named parameter of ``command``, as it spells the option.

    A list repeats the option for each value. The server never writes an option's name
    itself, so an option renamed in ``kit/options.py`` cannot drift from the pages.
    """
    params = {str(p.name): p for p in command.params}
    line = []
    for name, value in values.items():
        for one in [value] if isinstance(value, str) else value:
            line.append(f"{_flag(params[name])}={one}")
    return line


def _flag(param: click.Parameter) -> str:
    """The option's longest spelling (``--print-shop`` rather than ``-p``)."""
    assert isinstance(param, click.Option)
    return max(param.opts, key=len)


def parse(command: click.Command, name: str, line: list[str]) -> None:
    """Parse ``line`` as the command would, raising ``FormError`` with click's message."""
    try:
        command.make_context(name, list(line), resilient_parsing=False)
    except click.BadParameter as exc:
        raise FormError(_message(exc), str(exc.param.name) if exc.param else None) from None
    except click.ClickException as exc:
        param = getattr(exc, "param", None)
        raise FormError(_message(exc), str(param.name) if param is not None else None) \
            from None
    except click.exceptions.Exit:  # --help cannot be asked for: no field says it
        raise FormError("found a request for help, expected a value") from None


def _message(exc: click.ClickException) -> str:
    """The message click gives for a refused value, its user text made inert."""
    from generator.core.terminal import inert

    return inert(exc.format_message())
