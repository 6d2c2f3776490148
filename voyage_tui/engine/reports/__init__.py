"""Reports of results (SPEC 3.10, 6): one model, rendered as text, JSON, CSV, Markdown and HTML
for the command line (`voyage-tui results`) and the app's results screen alike, so that the file
the screen exports is byte for byte the one `--format md|html --output` writes.

- model.py      the report: the engine's results, and the campaign around them
- figures.py    how a figure is written (2 decimals, p, intervals), shared by every format
- text.py       the terminal's text
- table.py      CSV, one row per (group, agent, dimension)
- markdown.py   a pull-request comment
- html_page.py  one self-contained page with inline SVG charts
- render.py     FORMATS and `render(report, fmt)`: the one entry point
"""
