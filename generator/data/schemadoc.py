"""Schema reference pages, generated from the pydantic models of any ruleset."""

from __future__ import annotations

import enum
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel
from pydantic_core import PydanticUndefined


def type_name(annotation: Any) -> str:
    """Readable name for a field's type."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [type_name(a) for a in args if a is not type(None)]
        return " or ".join(inner) + " (optional)"
    if origin is list:
        return f"list of {type_name(args[0])}"
    if origin is dict:
        return f"mapping {type_name(args[0])} → {type_name(args[1])}"
    if origin is Literal:
        return " \\| ".join(f"`{a}`" for a in args)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return f"{annotation.__name__} (one of the codes)"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})"
    names = {int: "integer", float: "number", str: "text", bool: "true/false"}
    if annotation in names:
        return names[annotation]
    return getattr(annotation, "__name__", str(annotation))


def model_rows(model: type[BaseModel]) -> list[dict[str, str]]:
    """One row per field: key, type, required or default, description."""
    rows = []
    for name, info in model.model_fields.items():
        if info.is_required():
            need = "required"
        elif info.default_factory is not None:
            need = "optional (empty)"
        elif info.default is PydanticUndefined or info.default is None:
            need = "optional"
        else:
            shown = str(info.default).lower() if isinstance(info.default, bool) else info.default
            need = f"default `{shown}`"
        rows.append({"key": info.alias or name, "type": type_name(info.annotation),
                     "need": need, "description": info.description or ""})
    return rows


def sections(models: list[type[BaseModel]]) -> list[dict[str, Any]]:
    """Name, first docstring line and field rows of each model, for a template."""
    return [{"name": m.__name__, "doc": (m.__doc__ or "").strip().splitlines()[0],
             "rows": model_rows(m)} for m in models]


def _nested(model: type[BaseModel], seen: dict[str, type[BaseModel]]) -> None:
    """Collect ``model`` and every model its fields hold, depth-first, each once."""
    if model.__name__ in seen or len(seen) > 64:  # bounded: schemas are small trees
        return
    seen[model.__name__] = model
    for info in model.model_fields.values():
        stack = [info.annotation]
        while stack:
            annotation = stack.pop()
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                _nested(annotation, seen)
            stack.extend(getattr(annotation, "__args__", ()))


def generic_reference(title: str, kinds: dict[str, type[BaseModel]]) -> str:
    """A Markdown schema page for a ruleset without a template of its own.

    Args:
        title: The ruleset's printed name.
        kinds: Data kind (``kind:`` value) -> model.

    Returns:
        One section per data kind, each with a table per model it uses.

    """
    lines = [f"# {title}: data files", "",
             "Generated from the models by `quarterdeck docs`; do not edit by hand.", ""]
    for kind, model in kinds.items():
        lines += [f"## `kind: {kind}`", ""]
        seen: dict[str, type[BaseModel]] = {}
        _nested(model, seen)
        for section in sections(list(seen.values())):
            lines += [f"### {section['name']}", "", section["doc"], "",
                      "| key | type | need | description |", "|---|---|---|---|"]
            lines += [f"| `{r['key']}` | {r['type']} | {r['need']} | {r['description']} |"
                      for r in section["rows"]]
            lines.append("")
    return "\n".join(lines)
