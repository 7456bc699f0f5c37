"""Allow ``python -m generator``."""

from generator.cli.main import main

main()
