"""Git checks (docs/git-checks.md): `final_head_sha` against the repository, holdout exposure, retiring a
holdout (its writer is called only by triage's Retirer, which journals each retire for undo). No
Textual here; gitpython is imported only when a check runs."""
