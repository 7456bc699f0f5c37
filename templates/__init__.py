"""Bundled Jinja2 templates (installed as a data package)."""
