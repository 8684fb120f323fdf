"""Vocabularies for grouped layers and the family derivation documents.

The mutant table holds wrong variants of the documents' true claims; each must come out
``refuted`` (a changed constant, a dropped term, a wrong sign, a missing assumption).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from symnorm.errors import LimitError, SpecError
from symnorm.family.vocabularies import (
    definitions,
    groupnorm_spec,
    groupnorm_vocabulary,
    instancenorm_spec,
    instancenorm_vocabulary,
    sample_groups,
)
from symnorm.spec import batch_norm, group_norm, instance_norm, layer_norm

DERIVATIONS = Path(__file__).resolve().parents[1] / "derivations"
SIZES = {"N": 1, "C": 2, "H": 2, "W": 2}


@pytest.mark.parametrize("spec, groups", [
    (group_norm(2, "N C H W", sizes=SIZES), [[0, 1, 2, 3], [4, 5, 6, 7]]),
    (group_norm(1, "N C H W", sizes=SIZES), [list(range(8))]),
    (instance_norm("N C H W", sizes=SIZES), [[0, 1, 2, 3], [4, 5, 6, 7]]),
    (layer_norm(layout="N C H W", axes="W", sizes=SIZES), [[0, 1], [2, 3], [4, 5], [6, 7]]),
    # channels last: channel c of position p sits at 2p + c, so groups are strided
    (instance_norm("N W C", sizes={"N": 1, "W": 2, "C": 2}), [[0, 2], [1, 3]]),
    (group_norm(2, "N W C", sizes={"N": 1, "W": 2, "C": 4}), [[0, 1, 4, 5], [2, 3, 6, 7]]),
])
def test_sample_groups(spec, groups) -> None:  # type: ignore[no-untyped-def]
    assert sample_groups(spec) == groups


@pytest.mark.parametrize("spec, error, fragment", [
    (batch_norm("N C", sizes="N=2 C=2"), SpecError, "batchnorm vocabulary"),
    (group_norm(2, "N C H W", sizes="C=2"), SpecError, "needs every non-batch size"),
    (group_norm(2, "N C H W", sizes="N=1 C=4 H=3 W=3"), LimitError, "at most 16"),
    (group_norm(2, "N C W", sizes="N=1 C=2 W=2", affine=True), SpecError, "affine"),
])
def test_vocabulary_errors(spec, error, fragment) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=fragment):
        definitions(spec, "F", "f")


def test_vocabulary_lines_follow_the_spec() -> None:
    def layer(lines: list[str], name: str = "GN") -> str:
        # the map's line; the LaTeX reader's names follow the Jacobian (latex_lines)
        return next(ln for ln in lines if ln.startswith(f"let {name}(y) = "))

    lines = groupnorm_vocabulary(groupnorm_spec(2, 2, 2))
    assert lines[:3] == ["let d = 4", "vector x", "scalar eps"]
    assert lines[lines.index(layer(lines)) + 1] == "let Jg = jacobian(GN(x), x)"
    assert "/sqrt(" in layer(lines) and "/2 + eps)" in layer(lines)
    unbiased = layer(groupnorm_vocabulary(groupnorm_spec(2, 2, 2, var_denominator="N-1")))
    assert "/1 + eps)" in unbiased
    outside = layer(groupnorm_vocabulary(groupnorm_spec(2, 2, 2, eps_inside=False)))
    assert "(sqrt(" in outside and ") + eps)" in outside
    ins = layer(instancenorm_vocabulary(instancenorm_spec(2, 3)), "IN")
    assert ins.count("/sqrt(") == 2
    with pytest.raises(SpecError, match="groups=3"):
        groupnorm_spec(3, 4, 2)


def test_group_norm_document_uses_generated_definitions() -> None:
    text = (DERIVATIONS / "family_group_norm.md").read_text(encoding="utf-8")
    for name, prefix, spec in [
            ("GN2", "g", group_norm(2, "N C H W", sizes=SIZES)),
            ("IN", "i", instance_norm("N C H W", sizes=SIZES)),
            ("GN1", "h", group_norm(1, "N C H W", sizes=SIZES)),
            ("LNW", "w", layer_norm(layout="N C H W", axes="W", sizes=SIZES))]:
        for line in definitions(spec, name, prefix)[3:]:
            assert line in text, line


def test_registered_vocabularies_work_in_documents(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The wiring the lead adds to symnorm.lang.vocab, tried on a private registry copy."""
    from symnorm.check.run import check_text
    from symnorm.lang import vocab
    monkeypatch.setattr(vocab, "VOCABULARIES", dict(vocab.VOCABULARIES))
    vocab.register("groupnorm", groupnorm_spec, groupnorm_vocabulary)
    vocab.register("instancenorm", instancenorm_spec, instancenorm_vocabulary)
    text = ("```symnorm\nuse layernorm\nuse groupnorm\nuse instancenorm\n"
            "claim a: ge1.T*GN(x) == 0\nclaim b: GN(x) != IN(x)\n"
            "claim c: GN(x) == IN(x)\nclaim e: ie4.T*IN(x) == 0\n```\n")
    got = {v.label: v.status for v in check_text(text, sandbox=False).verdicts}
    assert got == {"a": "proved", "b": "proved", "c": "refuted", "e": "proved"}


# --- the documents, and wrong variants of their claims ---------------------------------

def _check(text: str):  # type: ignore[no-untyped-def]
    from symnorm.check.run import check_text
    return check_text(text, sandbox=False, timeout=20.0).verdicts


MUTANTS = [
    # (vocabularies, claim): each must be refuted
    ("use batchnorm\nscalar a, b", "BN(a; [a, b]) == (a - b)/sqrt((a - b)**2 + 2*eps)"),
    ("use batchnorm\nscalar a, b", "BN(a; [a, b]) == (b - a)/sqrt((a - b)**2 + 4*eps)"),
    ("use batchnorm", "BN(0; [0, 2]) == -10/sqrt(101)  given eps == 1/10"),
    ("use batchnorm", "BN(z).T*BN(z) == d"),
    ("use batchnorm\nscalar a", "BN(a*z) == BN(z)"),
    ("use batchnorm", "BN(0; [0, 2, 4]) == -sqrt(2/3)  given eps == 0"),
    ("use layernorm\nuse rmsnorm", "RMS(x) == N(x)"),
    ("use layernorm\nuse rmsnorm\nscalar b", "RMS(x + b*ones) == RMS(x)"),
    ("use rmsnorm", "Jr*x == eps/r**2*x"),
    ("use rmsnorm", "trace(Jr) == (d - 2)/r + eps/r**3"),
    ("use layernorm", "P*x/sqrt(x.T*P*x/d + eps) == P*x/(sqrt(x.T*P*x/d) + eps)"),
    ("use batchnorm", "(P*z).T*(P*z)/(d - 1) == (P*z).T*(P*z)/d"),
    ("scalar r, b", "(1 - 0.1)*r + 0.1*b == 0.1*r + 0.9*b"),
    ("", "(1/sqrt(1 + 1**2))**24 == 2**(-24)"),
]


@pytest.mark.parametrize("vocab, claim", MUTANTS)
def test_mutants_are_refuted(vocab: str, claim: str) -> None:
    (v,) = _check(f"```symnorm\n{vocab}\nclaim m: {claim}\n```\n")
    assert v.status == "refuted", (v.status, v.message)


FAMILY_DOCS = sorted(DERIVATIONS.glob("family_*.md"))


def test_family_documents_exist() -> None:
    names = {p.stem for p in FAMILY_DOCS}
    assert {"family_batch_pair", "family_weight_rescaling", "family_eps_placement",
            "family_group_norm", "family_rms_norm", "family_momentum", "family_fold",
            "family_prenorm"} <= names
    for p in FAMILY_DOCS:
        labels = re.findall(r"^claim ([\w.]+):", p.read_text(encoding="utf-8"), re.MULTILINE)
        assert len(labels) == len(set(labels)) and labels, p.name


@pytest.mark.slow
@pytest.mark.parametrize("path", FAMILY_DOCS, ids=lambda p: p.stem)
def test_family_document_checks(path: Path) -> None:
    from symnorm.check.run import check_document
    bad = [(v.label, v.status, v.message) for v in check_document(path).verdicts if not v.ok]
    assert not bad
