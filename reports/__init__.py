"""five35.reports: rule-clarification reports for rule designers (Markdown, HTML, JSON).

This package only renders. The report job (five35.checks.job.run.report_result) runs the checks,
impacts, the finished findings and variants into a `ReportData`; `report_data` arranges it into the
data of report.json (schema: report.schema.json); `render_all`/`write_report` turn that into the
files. check_formats/ renders a check run in `535-check check`'s --formats.
"""

from .build import report_data
from .render import FILES, render_all, render_html, render_json, render_markdown, write_report
from .sections import evidence_table

__all__ = [
    "FILES",
    "evidence_table",
    "render_all",
    "render_html",
    "render_json",
    "render_markdown",
    "report_data",
    "write_report",
]
