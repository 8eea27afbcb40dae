"""five35.checks.job: the report job, the one orchestrator of the work the report shows.

run.py runs it: the checks, the impact of every variation point and finding, what each answer
changes at the table, the variant comparison, all as units of one executor, into a `ReportData`.
review.py finishes the checks' findings for it (impact, severity, the proposal) and gathers them into
ranked questions. `535-check report`, the command-less job and a notebook call
`run.report_result`; five35.reports then only arranges (`report_data`) and renders (`write_report`).
"""
