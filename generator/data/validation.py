"""Turn pydantic validation errors into located ``found X, expected Y`` problems."""

from __future__ import annotations

import datetime as dt
import enum
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from generator.core.errors import DataError, Problem
from generator.core.suggest import did_you_mean
from generator.core.terminal import escaped
from generator.data.yamlsource import Loc, SourceDoc, load_yaml

if TYPE_CHECKING:
    from generator.cache import Key

M = TypeVar("M", bound=BaseModel)

_EXPECTED_BY_TYPE = {
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "float_parsing": "a number",
    "float_type": "a number",
    "bool_parsing": "true or false",
    "bool_type": "true or false",
    "string_type": "text",
    "date_type": "a date YYYY-MM-DD",
    "date_parsing": "a date YYYY-MM-DD",
    "date_from_datetime_parsing": "a date YYYY-MM-DD",
    "list_type": "a list",
    "dict_type": "a mapping of keys to values",
    "model_type": "a mapping of keys to values",
    "model_attributes_type": "a mapping of keys to values",
    "missing": "",
}


def describe(value: Any) -> str:
    """Describe a found value briefly, the way a user would recognise it."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        # Control characters (a NUL, an escape, a newline) are shown, not sent to the
        # console: each as the escape a user would type in YAML (\x1b, \u202e).
        value = "".join(ch if ch.isprintable() else escaped(ch) for ch in value[:60])
        return f"'{value}'" if len(value) <= 40 else f"'{value[:37]}...'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _field_annotation(model: type[BaseModel], loc: Loc) -> Any:
    """Find the annotation of the field at ``loc`` by walking the model classes."""
    annotation: Any = model
    for part in loc:
        annotation = _unwrap(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            info = _field_by_key(annotation, str(part))
            if info is None:
                return None
            # Metadata may narrow what a field accepts (``TypeSubset``: a ruleset's types).
            annotation = next((m.narrowed for m in info.metadata if hasattr(m, "narrowed")),
                              info.annotation)
        elif typing.get_origin(annotation) in (list, tuple):
            annotation = typing.get_args(annotation)[0]
        elif typing.get_origin(annotation) is dict:
            annotation = typing.get_args(annotation)[1]
        else:
            return None
    return annotation


def _keys(model: type[BaseModel]) -> list[str]:
    """The YAML keys a model accepts (aliases where set)."""
    return [info.alias or name for name, info in model.model_fields.items()]


def _field_by_key(model: type[BaseModel], key: str) -> Any:
    for name, info in model.model_fields.items():
        if (info.alias or name) == key:
            return info
    return None


def _unwrap(annotation: Any) -> Any:
    """Strip Optional[...] / X | None down to X, and Annotated[X, ...] to X."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            annotation = args[0]
    # optional_fields wraps a field as Annotated[X | None, ...]: its choices are X's.
    if typing.get_origin(annotation) is Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    return annotation


def _expected_for(annotation: Any) -> str:
    """Describe what a field accepts, from its annotation."""
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "one of " + ", ".join(str(m.value) for m in annotation)
    if typing.get_origin(annotation) is Literal:
        return "one of " + ", ".join(str(a) for a in typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a mapping"
    origin = typing.get_origin(annotation)
    if origin is list:
        return "a list"
    simple = {int: "a whole number", float: "a number", str: "text", bool: "true or false",
              dt.date: "a date YYYY-MM-DD"}
    return simple.get(annotation, "a value")


def _choices(annotation: Any) -> list[str]:
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [str(m.value) for m in annotation]
    if typing.get_origin(annotation) is Literal:
        return [str(a) for a in typing.get_args(annotation)]
    return []


def validate(model: type[M], doc: SourceDoc,
             data: Any | None = None) -> tuple[M | None, list[Problem]]:
    """Validate a document against a model, collecting every problem with its position.

    Args:
        model: The pydantic model (with ``extra="forbid"``).
        doc: The loaded document (for positions).
        data: The data to validate; defaults to ``doc.data``.

    Returns:
        The model instance (or None when invalid) and the list of problems.

    """
    try:
        return model.model_validate(doc.data if data is None else data), []
    except ValidationError as exc:
        return None, [_problem(model, doc, err) for err in exc.errors(include_url=False)]


def _problem(model: type[BaseModel], doc: SourceDoc, err: Any) -> Problem:
    # Drop pydantic's internal validator names from the path the user sees.
    loc: Loc = tuple(p for p in err["loc"]
                     if not (isinstance(p, str) and p.startswith("function-")))
    kind = err["type"]
    found = err.get("input")
    if kind == "extra_forbidden":
        parent = _unwrap(_field_annotation(model, loc[:-1]))
        known = _keys(parent) if isinstance(parent, type) and issubclass(parent, BaseModel) else []
        hint = did_you_mean(str(loc[-1]), known)
        return doc.problem(loc, f"found unknown key '{loc[-1]}', expected one of "
                                f"{', '.join(known)}{hint}", key=True)
    annotation = _field_annotation(model, loc)
    if kind == "missing":
        return Problem(*_located(doc, loc, _expected_for(annotation)))
    if kind in ("enum", "literal_error"):
        hint = did_you_mean(str(found), _choices(annotation)) if isinstance(found, str) else ""
        return doc.problem(loc, f"found {describe(found)}, expected "
                                f"{_expected_for(annotation)}{hint}")
    if kind == "value_error":
        # Our own validators raise ValueError("expected ...") with the whole message.
        message = str(err.get("ctx", {}).get("error", err["msg"]))
        return doc.problem(loc, f"found {describe(found)}, {message}")
    expected = _EXPECTED_BY_TYPE.get(kind) or _bound_text(kind, err) or _expected_for(annotation)
    return doc.problem(loc, f"found {describe(found)}, expected {expected}")


def _located(doc: SourceDoc, loc: Loc, expected: str) -> tuple[str, int, int, str, str]:
    # A missing key has no position of its own: point at the mapping that lacks it.
    line, column = doc.mark(loc[:-1])
    return (doc.display, line, column, ".".join(str(p) for p in loc),
            f"found nothing, expected {expected} (required)")


def _bound_text(kind: str, err: Any) -> str:
    ctx = err.get("ctx", {})
    bounds = {
        "greater_than": "a number greater than {gt}",
        "greater_than_equal": "a number of at least {ge}",
        "less_than": "a number less than {lt}",
        "less_than_equal": "a number of at most {le}",
        "too_short": "at least {min_length} item(s)",
        "too_long": "at most {max_length} item(s)",
        "string_too_short": "text of at least {min_length} character(s)",
        "string_too_long": "text of at most {max_length} character(s)",
        "string_pattern_mismatch": "text matching {pattern}",
    }
    template = bounds.get(kind)
    # A float field's bound prints as written in the schema: "at least 50", not "50.0".
    shown = {k: int(v) if isinstance(v, float) and v.is_integer() else v
             for k, v in ctx.items()}
    return template.format(**shown) if template else ""


def load_model(model: type[M], path: Path, display: str | None = None,
               precheck: Callable[[SourceDoc], list[Problem]] | None = None,
               check: Callable[[M, SourceDoc], list[Problem]] | None = None) -> M:
    """Load one YAML file and validate it against ``model``.

    A file quarterdeck ships (under the ``generator`` package: a ruleset's bundled
    tables, a sprue) is read by every command, so its valid instance is kept in the
    user cache and read back while the file and the code are unchanged. The caller need
    not ask for it, and a ruleset cannot: ``_model_key`` decides, from the path and from
    what the checks carry (see there).

    Args:
        model: The pydantic model.
        path: The file (read safely, never modified).
        display: How to name the file in messages (defaults to the path).
        precheck: Checks that locate problems better than the model can (run on the
            loaded document before validation).
        check: Checks that need the valid instance (whether its text fits the page),
            run after validation, their problems located in the document.

    Returns:
        The validated instance.

    Raises:
        DataError: With every problem found, each located.

    """
    found = _model_key(model, path, display, precheck, check)
    if found is None:
        return _load_model(model, path, display, precheck, check)
    from generator.cache import remember

    # A DataError is raised, never kept: a broken file is read (and reported) again.
    return remember(found[0], found[1],
                    lambda: _load_model(model, path, display, precheck, check),
                    model)


PACKAGE = Path(__file__).resolve().parents[1]
"""The ``generator`` package: a file under it is bundled (``load_model`` caches it)."""

_CONSTANTS = (str, int, float, bool, type(None))
"""What a check may hold from where it was made and still be cached: plain values."""


def _model_key(model: type[BaseModel], path: Path, display: str | None,
               *checks: Callable[..., Any] | None) -> tuple[str, Key] | None:
    """(cache slot, key) for ``load_model``; None when the result is not cached.

    Cached only when both hold:

    - the file is bundled (under ``PACKAGE``): a user's file is read by the one build
      that names it, and each would take an entry of its own;
    - every check is a plain function that carries nothing but constants from where it
      was made (``faces_precheck("faces")``), whose values then join the key. A check
      that holds anything else (the user's ``--tables``, a list it fills in as it
      checks) depends on more than the file and the code, and is run every time.

    The key names the file's bytes and path, how it is displayed (messages are kept in
    the instance), and the code of the model and the checks (their module files, with
    ``key``'s stamp of the package).
    """
    import hashlib
    import stat
    import sys

    from generator.cache import key, slot

    try:
        if not path.resolve().is_relative_to(PACKAGE):
            return None
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return None
        content = path.read_bytes()
    except (OSError, RuntimeError):  # RuntimeError: a loop of links
        return None
    code = []
    for thing in (model, *checks):
        if thing is None:
            continue
        carried = _carried(thing) if thing is not model else ()
        module = sys.modules.get(getattr(thing, "__module__", ""))
        origin = getattr(module, "__file__", None)
        if carried is None or origin is None:
            return None
        try:
            found = Path(origin).stat()
        except OSError:
            return None
        code.append((origin, found.st_size, found.st_mtime_ns,
                     getattr(thing, "__qualname__", ""), carried))
    where = f"{model.__module__}.{model.__qualname__}\0{path.resolve()}"
    return slot("model", where), key("model", where, display, code,
                                     hashlib.sha256(content).hexdigest())


def _carried(check: Callable[..., Any]) -> tuple[object, ...] | None:
    """The constants a check carries (its closure and defaults).

    None when it is not a plain function, or carries anything but constants.
    """
    if not isinstance(check, types.FunctionType):  # a bound method, a partial...
        return None
    try:
        carried = [cell.cell_contents for cell in check.__closure__ or ()]
    except ValueError:  # a cell not yet filled
        return None
    carried += [*(check.__defaults__ or ()), *(check.__kwdefaults__ or {}).items()]
    flat = [v for item in carried for v in (item if isinstance(item, tuple) else (item,))]
    return tuple(carried) if all(isinstance(v, _CONSTANTS) for v in flat) else None


def _load_model(model: type[M], path: Path, display: str | None,
                precheck: Callable[[SourceDoc], list[Problem]] | None,
                check: Callable[[M, SourceDoc], list[Problem]] | None) -> M:
    doc, problems = load_yaml(path, display)
    if not problems and precheck is not None:
        problems = precheck(doc)
    if problems:
        raise DataError(problems)
    instance, problems = validate(model, doc)
    if problems or instance is None:
        raise DataError(problems)
    if check is not None:
        problems = check(instance, doc)
        if problems:
            raise DataError(problems)
    return instance


def optional_fields(*models: type[BaseModel], name: str = "TablesFile") -> type[BaseModel]:
    """A model with every field of ``models`` as an optional key (for override files).

    A field is keyed by its alias where it has one, so two models may share a field
    name as long as one of them gives it a distinct key in the file. A field keeps its
    bounds; validators a model runs on its own fields do not come along, so a rule that
    must hold in an override file belongs in the field's type.
    """
    fields: dict[str, Any] = {}
    for model in models:
        for key, info in model.model_fields.items():
            # The field's own bounds (Field(min_length=1)...) travel with its type.
            annotation: Any = (Annotated[(info.annotation, *info.metadata)] if info.metadata
                               else info.annotation)
            fields[info.alias or key] = (annotation | None, Field(None))
    return create_model(name, __config__=ConfigDict(extra="forbid", populate_by_name=True),
                        **fields)


def load_overrides(user_file: Path, *models: type[BaseModel],
                   precheck: Callable[[SourceDoc], list[Problem]] | None = None,
                   check: Callable[[dict[str, Any], SourceDoc], list[Problem]] | None = None,
                   ) -> dict[str, Any]:
    """The top-level tables a user's file replaces, validated against ``models``' fields.

    Args:
        user_file: The user's YAML file (``--tables``).
        models: The models whose fields the file may replace.
        precheck: Checks that locate problems better than the models can.
        check: Checks of the validated tables against each other and the tables they
            join (names one table gives that another must hold), located in the file.

    Returns:
        Key (a field's alias, else its name) to validated value, for the keys the file
        gives.

    Raises:
        DataError: With every problem in the file, located.

    """
    if not user_file.exists():  # anything else that is not a regular file: load_yaml says what
        # exists() is False for a link that loops as for a missing file: say which it is.
        found = "a symbolic link that loops" if user_file.is_symlink() else "no such file"
        raise DataError([Problem(str(user_file), 0, 0, "", f"found {found}, expected a "
                                                           "YAML file of tables")])
    doc, problems = load_yaml(user_file, str(user_file))
    if problems:
        raise DataError(problems)
    if not isinstance(doc.data, dict) or not doc.data:
        raise DataError([doc.problem((), "found no tables, expected a mapping of table names "
                                         "to tables")])
    early = precheck(doc) if precheck is not None else []
    parsed, problems = validate(optional_fields(*models), doc)
    if early or problems or parsed is None:
        # Every problem at once: the prechecks' better-located ones, and the models' for
        # every field no precheck already spoke of, inside it or around it (the same
        # fault is said once).
        said = {q.path for q in early}
        raise DataError(early + [q for q in problems if not any(
            q.path == path or q.path.startswith(f"{path}.") or path.startswith(f"{q.path}.")
            for path in said)])
    given = {k: v for k, v in parsed if v is not None}
    if check is not None:
        problems = check(given, doc)
        if problems:
            raise DataError(problems)
    return given


def key_problems(doc: SourceDoc, loc: Loc, keys: Iterable[Any], expected: Sequence[Any],
                 what: str, *, complete: bool = True) -> list[Problem]:
    """Keys of the mapping at ``loc`` that name nothing known, and known names it lacks.

    Args:
        doc: The document (for positions).
        loc: Where the mapping is.
        keys: The mapping's keys.
        expected: The names the keys may take.
        what: What a key names ("a battery position"), for the message.
        complete: Whether every expected name needs a key (the rules look each one up).

    Returns:
        One problem per unknown key (with a did-you-mean) and one for the missing names.

    """
    keys = list(keys)
    known = [str(e) for e in expected]
    problems = [doc.problem((*loc, key), f"found unknown key '{key}', expected a {what}: "
                                         f"{', '.join(known)}{did_you_mean(str(key), known)}",
                            key=True)
                for key in keys if str(key) not in known]
    missing = [e for e in known if e not in {str(k) for k in keys}]
    if complete and missing:
        problems.append(doc.problem(loc, f"found no {', '.join(missing)}, expected an entry "
                                         f"for every {what} ({', '.join(known)})"))
    return problems


def name_problem(doc: SourceDoc, loc: Loc, found: str, choices: Iterable[str],
                 what: str) -> Problem:
    """A name that refers to nothing: ``found 'X', expected one of ...`` and a did-you-mean."""
    names = list(choices)
    return doc.problem(loc, f"found {describe(found)}, expected {what}: "
                            f"{', '.join(names) or 'none defined'}{did_you_mean(found, names)}")
