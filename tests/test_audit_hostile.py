"""Whatever the audited code raises is a one-line AuditError, exit 2 (red-team round 7)."""

from __future__ import annotations

import pytest

from symnorm.cli import main

MODELS = '''
import numpy as np
from symnorm.spec import layer_norm
spec = layer_norm(layout="N D", axes=1, eps="1e-5")
def ln(x):
    return (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5)
def raises_sysexit(x): raise SystemExit(0)
def raises_sysexit_1(x): raise SystemExit(1)
class E(BaseException): pass
def raises_base(x): raise E("base")
def raises_evil(x): raise RuntimeError("boom \\x1b[2J\\n\\u202e tail")
class Weird:
    def __call__(self, x): return ln(x)
    @property
    def weight(self): raise RuntimeError("prop")
weird = Weird()
def raises_kbd(x): raise KeyboardInterrupt()
'''


@pytest.fixture
def models(tmp_path, monkeypatch):
    name = f"audit_hostile_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(MODELS)
    monkeypatch.chdir(tmp_path)
    return name


def _audit(cmd: str, target: str, models: str) -> int:
    extra = ["--spec", f"{models}:spec"] if cmd == "conform" else ["--layout", "N D"]
    return main(["audit", cmd, f"{models}:{target}", *extra, "--sizes", "N=2 D=3"])


@pytest.mark.parametrize("cmd", ["infer", "conform"])
@pytest.mark.parametrize(("target", "kind"), [
    ("raises_sysexit", "SystemExit"), ("raises_sysexit_1", "SystemExit"),
    ("raises_base", "E"), ("weird", "RuntimeError"), ("raises_evil", "RuntimeError")])
def test_user_exception_is_one_line_audit_error(models, capsys, cmd, target, kind):
    rc = _audit(cmd, target, models)
    out, err = capsys.readouterr()
    assert rc == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "error:" in lines[0]
    assert target.split("_")[0] in lines[0] and f"raised {kind}" in lines[0]
    assert "\x1b" not in err and "\u202e" not in err and "Traceback" not in err


def test_ctrl_c_in_user_code_still_interrupts(models, capsys):
    assert _audit("infer", "raises_kbd", models) == 130


def test_well_behaved_callable_still_audits(models, capsys):
    assert _audit("conform", "ln", models) == 0
