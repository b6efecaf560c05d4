"""ReportComposer signature: the final answer's prose and the cells of its comparison table.

The table's skeleton (one column per slice, in plan order), global renumbering, daggers and
the Sources and Notes blocks are code (``programs.composer``); the LLM writes the argument
and picks the figures that deserve a row.
"""

from __future__ import annotations

import dspy
from pydantic import BaseModel, Field


class TableRow(BaseModel):
    """One comparison-table row: a metric and its value per slice label, with citations."""

    metric: str = Field(min_length=1, description="e.g. 'Capital expenditure ($m)'")
    values: dict[str, str] = Field(
        default_factory=dict, description="slice label -> value with its marker, e.g. '4,817.3¹'"
    )


class ComposeReport(dspy.Signature):
    """Write the final research answer from the slice summaries, as a senior analyst would.

    - Lead with the direct answer to the question in the first sentence; then the evidence,
      compared across companies and periods where there are several slices.
    - Reuse the summaries' citation markers (superscript numbers as listed in the Sources
      block) after every sentence and every number; cite nothing that is not listed and add
      no Sources block. Keep numbers exactly as the summaries state them.
    - Flag disagreement and gaps honestly; where a slice has open issues, say what is missing.
    - comparison_rows: when there is more than one slice, the 2-6 metrics that best compare
      them; each value copies a figure and its marker from the summaries (e.g. "$4,817.3
      million¹"), keyed by the exact slice label; leave a slice out if no figure is given.
      Use an empty list for a single slice.
    - report_markdown: Markdown prose (short paragraphs or bullets), no tables, no Sources.
    """

    question: str = dspy.InputField()
    slice_labels: list[str] = dspy.InputField(desc="the slices researched, in order")
    slice_summaries: str = dspy.InputField(desc="each slice's summary with one Sources block")
    open_issues: str = dspy.InputField(desc="slices with insufficient evidence, and why")
    report_markdown: str = dspy.OutputField(desc="the answer's prose, cited")
    comparison_rows: list[TableRow] = dspy.OutputField(desc="table rows; [] for one slice")
