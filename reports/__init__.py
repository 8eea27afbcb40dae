"""five35.reports: rule-clarification reports for rule designers (Markdown, HTML, JSON).

`report_data` arranges the checks' Findings, the impact estimate and the simulation Stats into the
data of report.json (schema: report.schema.json); `render_all`/`write_report` turn it into the
three files; `make_report` runs the whole job.
"""

from .build import PointImpact, ReportInputs, Variant, collect_findings, evidence_table, report_data
from .render import FILES, render_all, render_html, render_json, render_markdown, write_report

__all__ = [
    "FILES",
    "PointImpact",
    "ReportInputs",
    "Variant",
    "collect_findings",
    "evidence_table",
    "render_all",
    "render_html",
    "render_json",
    "render_markdown",
    "report_data",
    "write_report",
]
