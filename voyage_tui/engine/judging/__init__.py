"""Programs as raters (SPEC 3.11): a judge's command, found only where the user keeps it
(command.py); the blind document it reads (document.py); one bounded run of it (process.py);
a whole judging pass, resumable and in parallel (judge.py); and how far to trust it, against
the people (align.py). Nothing here runs anything a workspace names (docs/trust.md)."""
