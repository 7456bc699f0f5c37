"""The kit layer: a ruleset's printed kit, planned, built and written.

Recipes, the build pipeline, packets, print notes, the options commands share, events,
catalogs, previews and watching.

It may import every shared layer: ``core``, ``data``, ``rules``, ``pages``, ``pieces``,
``aids`` and ``cache``.
"""
