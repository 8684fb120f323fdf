"""The JSON printer: the verdicts as ``symnorm check --json`` writes them, plus provenance.

``{"claims": [Verdict.to_json(), ...], "summary": {...}}`` is the check schema; the
report adds ``document``, ``date``, ``versions`` (symnorm, sympy, mpmath, ...) and
``figures`` (name, files).  Timings stay in the claims (``seconds``) as the check writes
them; they are the only fields that differ between two runs on the same day.
"""

from __future__ import annotations

import json

from ..check.verdict import CLAIM_KEYS, check_payload, claim_json, exit_code
from .model import ReportModel
from .printer import Printer

__all__ = ["CLAIM_KEYS", "JsonPrinter", "check_payload", "claim_json"]  # re-exported


class JsonPrinter(Printer):
    """Render the report model as ``evidence.json``."""

    filename = "evidence.json"

    def doprint(self, model: ReportModel) -> str:
        payload = check_payload(model.verdicts)
        payload.update({
            "exit_code": exit_code(model.verdicts),
            "document": model.source_path,
            "title": model.title,
            "date": model.date,
            "versions": model.versions,
            "figures": [{"name": f.name, "title": f.title, "caption": f.caption,
                         "files": f.files, "line": f.line} for f in model.figures],
        })
        return json.dumps(payload, indent=2, ensure_ascii=False, default=str) + "\n"
