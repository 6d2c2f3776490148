"""Runs from other harnesses (SPEC 3.13): Inspect AI logs, SWE-bench predictions, Harbor jobs,
read by content (registry.py), matched to fixtures and written as run files (plan.py)."""
