"""The pages layer: the page engine and what it draws with.

Layout, the canvas document, components and their bookmarks, grids, word wrap,
autofit, templates, branding, calibration, table styles, the kit document and PDF
streaming; and the page parts rulesets share: matchup pages, reference-card parts and
record-sheet boxes.

It may import ``core``, ``cache`` and ``data``.
"""
