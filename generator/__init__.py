"""quarterdeck: naval-wargame ship data in, printed kits out."""

__version__ = "0.1.0"
