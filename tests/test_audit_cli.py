"""``symnorm audit`` from the command line, and the audit report files."""

from __future__ import annotations

import json

import pytest

from symnorm.cli import main

MODELS = '''
import numpy as np
from symnorm.audit.examples import NumpyNorm
from symnorm.spec import layer_norm
ln = NumpyNorm((2,), eps=1e-3, eps_inside=False, weight_shape=(5,), weight_axes=(2,))
good = NumpyNorm((2,), eps=1e-5, weight_shape=(5,), weight_axes=(2,))
spec = layer_norm(layout="N T D", axes=1, eps="1e-5", affine=True)
double = lambda x: 2 * x
not_a_spec = 3
'''


@pytest.fixture
def models(tmp_path, monkeypatch):
    name = f"audit_models_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(MODELS)
    monkeypatch.chdir(tmp_path)
    return name


def test_infer_prints_fields_and_exits_0(models, capsys):
    rc = main(["audit", "infer", f"{models}:ln", "--layout", "N T D", "--sizes", "N=2 T=2 D=5"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "eps_inside       False" in out and "1/1000" in out and "spec: name=layer_norm" in out


def test_infer_without_spec_exits_1(models, capsys):
    assert main(["audit", "infer", f"{models}:double", "--layout", "N D",
                 "--sizes", "N=2 D=3"]) == 1
    assert "no spec:" in capsys.readouterr().out


def test_conform_exit_codes_and_json(models, capsys):
    args = ["--sizes", "N=2 T=2 D=5"]
    assert main(["audit", "conform", f"{models}:good", "--spec", f"{models}:spec", *args]) == 0
    assert "conforms" in capsys.readouterr().out
    assert main(["audit", "conform", f"{models}:ln", "--spec", f"{models}:spec", "--json",
                 *args]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["agree"] is False and "tiny variance" in data["disagreeing"]


def test_conform_against_a_preset(models, capsys):
    assert main(["audit", "conform", f"{models}:good", "--spec", "torch.layer_norm",
                 "--sizes", "N=2 T=2 D=5", "--families", "random", "tiny variance"]) == 0
    assert "tiny variance" in capsys.readouterr().out


def test_report_files_written(models, tmp_path, capsys):
    out = tmp_path / "rep"
    main(["audit", "conform", f"{models}:ln", "--spec", f"{models}:spec",
          "--sizes", "N=2 T=2 D=5", "-o", str(out)])
    md = (out / "audit.md").read_text()
    page = (out / "audit.html").read_text()
    data = json.loads((out / "audit.json").read_text())
    assert "## Conformance: NumpyNorm vs layer\\_norm" in md and "DISAGREE" in md
    assert "<table>" in page and "DISAGREE" in page and "<script" not in page
    assert data["sections"][0]["verdict"] == "does not conform"


@pytest.mark.parametrize("argv,msg", [
    (["audit"], "say which audit"),
    (["audit", "infer", "os;rm:x"], "is not MODULE:ATTR"),
    (["audit", "infer", "no_such_module_xyz:a"], "cannot import"),
    (["audit", "infer", "{m}:missing"], "has no attribute 'missing'"),
    (["audit", "conform", "{m}:good", "--spec", "torch.nope"], "unknown preset 'torch.nope'"),
    (["audit", "conform", "{m}:good", "--spec", "{m}:not_a_spec"], "not a NormSpec"),
    (["audit", "conform", "{m}:good", "--spec", "torch.group_norm"], "needs --groups"),
    (["audit", "conform", "{m}:good", "--spec", "torch.layer_norm", "--sizes", "N=2 T=2 D=3"],
     "raised ValueError"),
    (["audit", "infer", "{m}:good", "--sizes", "N=two"], "size of axis 'N'"),
])
def test_usage_errors_exit_2_without_traceback(models, capsys, argv, msg):
    rc = main([a.replace("{m}", models) for a in argv])
    err = capsys.readouterr().err
    assert rc == 2
    assert msg in err and "Traceback" not in err


def test_several_targets_make_one_study(models, tmp_path, capsys):
    out = tmp_path / "study"
    rc = main(["audit", "conform", f"{models}:good", f"{models}:ln", "--spec", f"{models}:spec",
               "--sizes", "N=2 T=2 D=5", "-o", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 1 and [d["agree"] for d in data] == [True, False]
    report = json.loads((out / "audit.json").read_text())
    assert [s["verdict"] for s in report["sections"]] == ["conforms", "does not conform"]
    md = (out / "audit.md").read_text()
    assert md.count("\n## Conformance") == 2
