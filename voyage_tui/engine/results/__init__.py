"""Results (SPEC 3.10): which agent is better, by how much, and how sure.

- stats.py    the percentile bootstrap interval and the sign-flip permutation p (numpy, lazily)
- model.py    the report as data, and its JSON (`voyage-tui results --format json`)
- compute.py  per agent and dimension, paired comparisons against a baseline, breakdowns
- plan.py     `--plan`: the fixtures that would detect a difference of D (mde solved for n)
- gold.py     gold runs grouped by file-name stem: one review agent across corpora
- inputs.py   the workspace's inputs (runs, effective scores, gold runs), gathered once
"""
