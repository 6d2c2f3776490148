"""Every rule of SPEC 3, each yielding diagnostics with a stable code and an exact place."""
