"""The command line: ``quarterdeck`` and ``python -m generator``.

The top layer: it may import every other, the rulesets included.
"""
