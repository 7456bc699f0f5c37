"""The data layer: ship data in, checked.

YAML sources, validation, the data models, the ship and class library, rosters,
images, the bundled data, conversion, scaffolding, schema docs and spreadsheets.

It may import ``core`` and ``cache``.
"""
