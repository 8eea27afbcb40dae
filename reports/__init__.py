"""five35.reports: rule-clarification reports for rule designers (Markdown, HTML, JSON).

`job.report_result` runs the one pipeline (checks, impacts, the finished findings, variants) into a
`ReportData`; `report_data` arranges it into the data of report.json (schema: report.schema.json);
`render_all`/`write_report` turn that into the three files; `job.make_report` does all of it.
"""

from .build import evidence_table, report_data
from .render import FILES, render_all, render_html, render_json, render_markdown, write_report

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
