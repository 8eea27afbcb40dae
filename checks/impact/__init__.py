"""five35.checks.impact: how much a finding matters in play, and the two sides it compares.

A finding's `Alternative` (alternatives.py, built from the words file) puts two sides against each
other: two readings, or the reference engine against a small variant engine (variants.py: the
reference with one clause reworded or deleted). measure.py plays the same seeded matches under the
played side and puts every step to the compared side; the share of matches that differ, per player
count, is the finding's impact (estimate.py), and the first difference becomes a witness
(witnesses.py). A finding's scene from the words file is set up and played on both sides by
scenes.py. The report job (five35.checks.job: run.py and review.py) calls these; nothing here runs
as a check of its own.
"""
