"""The rules layer: dice and seeds, die tables, the tables in force and DEFAULT marks.

Also what every ruleset's calculators share: a calculator's memory (``memo``), the odds
index ``quarterdeck odds`` keeps (``oddsindex``) and the grouping of enemies by the
values the tables read (``targets``).

It may import ``core``, ``cache``, ``data`` and ``pages`` (a die table draws itself with the
page engine's grids).
"""
