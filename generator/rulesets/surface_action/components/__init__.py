"""Surface Action components: counter pieces and event cards."""
