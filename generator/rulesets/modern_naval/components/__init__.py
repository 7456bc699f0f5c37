"""Modern naval components: unit data cards and briefings."""
