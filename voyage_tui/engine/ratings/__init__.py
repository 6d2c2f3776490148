"""Ratings (docs/workspace.md, "Ratings"): rater records, their validation, the rater session and agreement.

- records.py: one line of `<ratings>/<rater>.jsonl`, read with its line number;
- rules.py: the checks that need the rubric and the suite (`check_ratings_file`);
- store.py: every file checked, the rating in force per (fixture_id, run_id, rater), and the
  durable append (`RatingStore`, `append_rating`);
- session.py: a rater's queue, resume, submit / undo / redo (`RaterSession`);
- keypad.py: the keys of one pair before it is submitted (`ScoreDraft`);
- lock.py: one live session per rater (`RaterLock`, a flock on `.voyage/locks/<key>.lock`);
- agreement.py: Krippendorff's alpha, Cohen's kappa, the most disputed items; labels.py: the
  raters' short labels in tables of pairs (initials for long names, with a legend);
- names.py: who the rater is (`resolve_rater`); history.py: runs git once held.
- assignment.py: who rates which item in a campaign (`[rating] raters`, `overlap`: rendezvous
  hashing, SPEC 3.9); status.py: the campaign's progress and pace (`ratings status`);
- effective.py: the effective scores of an item (SPEC 3.9).
- names.py: who the rater is (`resolve_rater`); history.py: runs git once held;
- effective.py: the effective score of an item (adjudicated, else the raters' mean);
- adjudications.py: the adjudications file, read, checked, in force, appended;
- disputes.py: the disputed items (`adjudicate --list`, the adjudication screen);
- calibration.py: each rater against the adjudicated scores;
- export.py: the rows of `ratings export`.

No module here imports Textual; numpy and krippendorff are imported only when an alpha is
computed.
"""
