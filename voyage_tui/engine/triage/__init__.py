"""Triage: one queue of everything in the workspace that needs a person, worst first (SPEC 5).

- keys.py: the kinds, their order, and the key that names an item across unrelated edits;
- queue.py: the queue, computed from the engine's results and never stored;
- state.py: what is stored: the snoozes and the undo journal (`.voyage/triage.json`);
- actions.py: snooze, unsnooze, retire, commit, undo.

No Textual here: the command line (`voyage-tui triage`) and the app's screen both call this.
"""
