"""The coordinator contract and the gold scorer: pure functions, no I/O.

- verdict.py   computeVerdict (any BLOCKER -> BLOCK, else any MAJOR -> WARN, else ALLOW)
- contract.py  runContract: reviewer payloads -> merged findings, invalid findings, verdict
- scorer.py    scoreFindings / scoreVerdict: (file, rule_key) set matching with dual_flaggable
- report.py    one run against one gold record, as `voyage-tui score` reports it
- compare.py   a run against a baseline run of the same gold (gained, lost, flips, regression)

Loading gold and run files from disk is rules/gold_run_files.py's job.
"""
