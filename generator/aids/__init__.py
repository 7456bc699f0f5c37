"""The aids layer: play aids (strips, gauges, board aids and dice sheets).

It may import ``core``, ``data``, ``rules``, ``pages``, ``pieces`` and ``cache``.
"""
