"""The rules layer: dice and die tables.

It may import ``core``, ``cache``, ``data`` and ``pages`` (a die table draws itself with the
page engine's grids).
"""
