"""The JSON printer: the verdicts as ``symnorm check --json`` writes them, plus provenance.

``{"claims": [Verdict.to_json(), ...], "summary": {...}}`` is the check schema; the
report adds ``document``, ``date``, ``versions`` (symnorm, sympy, mpmath, ...) and
``figures`` (name, files).  Timings stay in the claims (``seconds``) as the check writes
them; they are the only fields that differ between two runs on the same day.
"""

from __future__ import annotations

import json
from typing import Any

from ..check.verdict import Verdict, exit_code, summarize
from .model import ReportModel
from .printer import Printer

__all__ = ["JsonPrinter", "check_payload"]


def check_payload(verdicts: list[Verdict]) -> dict[str, Any]:
    """The ``symnorm check --json`` object for ``verdicts``."""
    summary: dict[str, Any] = dict(summarize(verdicts))
    summary["total"] = len(verdicts)
    summary["exit_code"] = exit_code(verdicts)
    return {"claims": [v.to_json() for v in verdicts], "summary": summary}


class JsonPrinter(Printer):
    """Render the report model as ``evidence.json``."""

    filename = "evidence.json"

    def doprint(self, model: ReportModel) -> str:
        payload = check_payload(model.verdicts)
        payload.update({
            "document": model.source_path,
            "title": model.title,
            "date": model.date,
            "versions": model.versions,
            "figures": [{"name": f.name, "title": f.title, "caption": f.caption,
                         "files": f.files, "line": f.line} for f in model.figures],
        })
        return json.dumps(payload, indent=2, ensure_ascii=False, default=str) + "\n"
