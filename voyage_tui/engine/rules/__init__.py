"""Every per-file rule (docs/rules.md), each yielding diagnostics with a stable code and an exact place."""
