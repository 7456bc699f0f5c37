"""NAVAL ACTION's pre-rolled dice sheet: the shared one (``generator.aids.dicesheet``)."""

from generator.aids.dicesheet import COLUMNS, HOW, RED, ROWS, render_dice_sheet

__all__ = ["COLUMNS", "HOW", "RED", "ROWS", "render_dice_sheet"]
