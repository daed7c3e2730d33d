"""The repository's maintenance scripts, run from its root as modules: ``python -m tools.NAME``."""
