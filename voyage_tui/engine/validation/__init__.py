"""Validating a whole workspace, and re-validating only what a change touches."""
