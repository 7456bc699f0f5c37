"""Surface Action components: sheets, cards, counters and play aids."""
