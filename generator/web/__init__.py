"""``quarterdeck serve``: a local web front-end for players, clubs and designers.

The pages are made from the command line's own commands (``forms``), and everything
they ask for runs as those commands (``jobs``). Flask is imported by ``app`` only.
"""
