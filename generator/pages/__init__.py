"""The pages layer: the page engine and what it draws with.

Layout, the canvas document, components and their bookmarks, grids, word wrap,
autofit, templates, branding, calibration, table styles, the kit document and PDF
streaming.

It may import ``core``, ``cache`` and ``data``.
"""
