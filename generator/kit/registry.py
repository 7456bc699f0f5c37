"""The ruleset registry as the kit layer reads it: every entry a whole ``Ruleset``.

The same registry as ``generator.data.registry.REGISTRY`` (one store, found through the
``quarterdeck.rulesets`` entry points), each ruleset checked to be a
``generator.kit.seam.Ruleset`` when it is handed out, so the pipeline, events, previews
and the command line get a typed ruleset and never import a ruleset package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.data import registry

if TYPE_CHECKING:
    from generator.data.library import Library
    from generator.kit.seam import Request, Ruleset


def _ruleset_class() -> type[Any]:
    # Imported when a ruleset is first handed out: listing names needs no seam.
    from generator.kit.seam import Ruleset

    return Ruleset


REGISTRY: registry.Registry[Ruleset[Any]] = registry.REGISTRY.typed(_ruleset_class)
"""Every ruleset by name, in listing order; each is imported when first looked up."""


def register(ruleset: Ruleset[Any]) -> None:
    """Add a ruleset at run time (tests, or a program embedding quarterdeck)."""
    REGISTRY[ruleset.name] = ruleset


def default_ruleset() -> Ruleset[Any]:
    """The ruleset listed first: the one ``build`` without a scenario serves."""
    return next(iter(REGISTRY.values()))


def default_scenario() -> str | None:
    """The scenario ``quarterdeck build`` builds when none is named."""
    return default_ruleset().default_scenario


def owner(library: Library, request: Request) -> Ruleset[Any]:
    """The ruleset that serves a request (UsageError naming what does not exist).

    ``generator.kit.pipeline`` re-exports it; it lives here so that a command
    that only asks (``odds``) need not import the build pipeline.
    """
    from generator.data.library import owner_name

    return REGISTRY[owner_name(library, request)]
