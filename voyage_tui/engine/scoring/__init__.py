"""The coordinator contract and the gold scorer: pure functions, no I/O."""
