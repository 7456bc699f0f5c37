"""NAVAL ACTION components: status sheets, blank master, catalog, briefing."""
