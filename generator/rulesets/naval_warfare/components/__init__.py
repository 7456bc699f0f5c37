"""Naval Warfare components: each module registers its components on ``COMPONENTS``."""
