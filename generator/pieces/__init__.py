"""The pieces layer: counters, cards and markers.

Faces, decks, sprues, imposition, export, the duplex check and ship silhouettes.

It may import ``core``, ``data``, ``rules``, ``pages`` and ``cache``.
"""
