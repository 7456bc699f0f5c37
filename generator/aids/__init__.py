"""The aids layer: play aids (strips, gauges, range strings and tapes, board aids, dice sheets).

It may import ``core``, ``data``, ``rules``, ``pages``, ``pieces`` and ``cache``.
"""
