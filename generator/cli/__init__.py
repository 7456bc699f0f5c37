"""The command line: ``quarterdeck`` and ``python -m generator``.

The top layer: it may import every layer below it, and reaches the rulesets only through
their registry and the seam (``Ruleset.commands``, ``Ruleset.calculators``), never by a
ruleset's own package (the import contract in ``pyproject.toml`` says so). The root is
``generator.cli.main``; each other module holds one group of verbs.
"""
