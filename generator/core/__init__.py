"""The core layer: what every other layer builds on.

Errors, units, scales, name suggestions, path arguments, the terminal and safe text.

It imports no other layer of ``generator``; every other layer may import it.
"""
