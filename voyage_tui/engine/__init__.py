"""The engine: workspace, formats, validation, scoring, git and ratings.

Nothing under this package imports Textual: the command line and the app both call it, and
`voyage-tui validate` must start without paying for the UI stack (a test enforces this).
"""
