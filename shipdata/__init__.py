"""Bundled ship data (installed as a data package)."""
