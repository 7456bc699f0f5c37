"""The cache layer, beside the others: the user cache (keyed, signed and optional).

It may import ``core``; every shared layer may import it.
"""
