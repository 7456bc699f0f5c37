"""The kit layer: a ruleset's printed kit, planned, built and written.

Recipes, the build pipeline, packets, print notes, output, events, catalogs, previews,
watching and parallel builds.

It may import every shared layer: ``core``, ``data``, ``rules``, ``pages``, ``pieces``,
``aids`` and ``cache``.
"""
