"""The rules layer: dice and seeds, die tables, the tables in force and DEFAULT marks.

It may import ``core``, ``cache``, ``data`` and ``pages`` (a die table draws itself with the
page engine's grids).
"""
