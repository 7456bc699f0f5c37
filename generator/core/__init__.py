"""The core layer: what every other layer builds on.

Errors, units, scales, name suggestions, path arguments, the terminal and safe text,
what every command prints through (``commandline``), writing files whole or not at all
(``output``), forking work over the CPUs (``parallel``) and the bundled fonts (``fonts``).

It imports no other layer of ``generator``; every other layer may import it.
"""
