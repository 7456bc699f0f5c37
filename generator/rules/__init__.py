"""The rules layer: dice and die tables.

It may import ``core``, ``data`` and ``cache``.
"""
