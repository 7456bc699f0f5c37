"""The modern naval component registry.

It sits apart from ``__init__`` so that every component module can register itself
without importing the ruleset class.
"""

from generator.kit.seam import Components

COMPONENTS = Components()
