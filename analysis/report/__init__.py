"""The run's static HTML report (``python -m analysis report --run DIR``): tables, figures, transcripts.

Reads records and transcripts files only; imports nothing from the harness.
"""

from analysis.report.build import ReportInputError, build_report

__all__ = ["build_report", "ReportInputError"]
