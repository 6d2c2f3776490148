"""Gold-vs-run review: the rows of a diff, the ranking of runs, run against run, export.

Every figure comes from the scorer (engine/scoring); this package only arranges the results for
a person to read, in the app or pasted into a pull request.
"""
