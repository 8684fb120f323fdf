"""The CLI's rough edges of issue 11, each pinned by a test that failed before the fix."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pty_support import in_pty

from symnorm.check.run import check_text, find_documents
from symnorm.cli import main

ROOT = Path(__file__).resolve().parents[1]


def doc(*lines: str) -> str:
    return "# notes\n\n```symnorm\n" + "\n".join(lines) + "\n```\n"


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- --paper ----------------------------------------------------------------------------------

def test_check_paper_only_works_from_any_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "check", "--paper", "--only", "jacobian.radial")
    assert code == 0, err
    rows = out.splitlines()
    assert rows[1].split()[:3] == ["proved", "jacobian.radial", "every"]
    assert "symnorm/data/paper.md:" in rows[1]
    assert "(1 claim in 1 document," in rows[-1]


def test_report_paper_only_and_a_document_together_is_a_usage_error(tmp_path, capsys):
    code, _out, err = cli(capsys, "report", str(tmp_path / "x.md"), "--paper")
    assert code == 2 and err.splitlines()[0].startswith("usage: symnorm report")
    assert "give a document or --paper, not both" in err


def test_paper_reproduce_line_names_paper(capsys):
    from symnorm.check.verdict import Verdict
    from symnorm.commands.check import _row
    v = Verdict("symnorm/data/paper.md", 3, "a.b", "x == y", "refuted", counterexample={"d": "2"})
    assert "reproduce: symnorm check --paper --only a.b" in _row(v, False, paper=True)
    assert "reproduce: symnorm check notes.md --only a.b" in _row(
        Verdict("notes.md", 3, "a.b", "x == y", "refuted", counterexample={"d": "2"}), False)


# --- progress bar -----------------------------------------------------------------------------

def _in_pty(args: list[str], cwd: Path, stdout_pipe: bool = False) -> tuple[int, str, str]:
    return in_pty(args, cwd, stdout_pipe)


def _two_claims(tmp_path: Path) -> None:
    (tmp_path / "d.md").write_text(doc("use layernorm", "claim first.one: J*ones == 0",
                                       "claim second.one: J*c == eps/s**3*c"))


def test_progress_bar_on_a_terminal(tmp_path):
    _two_claims(tmp_path)
    code, seen, _ = _in_pty(["check", "d.md"], tmp_path)
    assert code == 0, seen
    assert "0/2 claims" in seen and "2/2 claims" in seen
    assert "checking first.one" in seen and "checking second.one" in seen
    assert re.search(r"\| 00:\d\d", seen)  # elapsed time
    table = seen[seen.index("status"):]
    assert "claims |" not in table  # the bar is gone before the results


@pytest.mark.parametrize("args, stdout_pipe", [(["check", "d.md", "--json"], False),
                                               (["check", "d.md"], True)])
def test_no_progress_bar_for_json_or_when_stdout_is_not_a_terminal(tmp_path, args, stdout_pipe):
    _two_claims(tmp_path)
    code, seen, piped = _in_pty(args, tmp_path, stdout_pipe)
    assert code == 0
    assert "claims |" not in seen + piped and "checking" not in seen + piped
    assert "\r" not in piped


def test_no_progress_bar_in_a_pipe(tmp_path):
    _two_claims(tmp_path)
    p = subprocess.run([sys.executable, "-m", "symnorm", "report", "d.md", "-o", "out"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0 and p.stderr == ""


def test_report_shows_progress_on_a_terminal(tmp_path):
    _two_claims(tmp_path)
    code, seen, _ = _in_pty(["report", "d.md", "-o", "out"], tmp_path)
    assert code == 0 and "2/2 claims" in seen and "report.html" in seen


# --- report -o FILE, --only with suggestions ---------------------------------------------------

def test_report_into_an_existing_file_is_one_line_exit_2(tmp_path, capsys):
    (tmp_path / "d.md").write_text(doc("use layernorm", "claim a: J*ones == 0"))
    (tmp_path / "README.md").write_text("mine\n")
    code, out, err = cli(capsys, "report", str(tmp_path / "d.md"), "-o",
                         str(tmp_path / "README.md"))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "README.md" in err and "Traceback" not in err
    assert (tmp_path / "README.md").read_text() == "mine\n"


LABELLED = doc("use layernorm", "claim eq3.1: J*ones == 0", "claim eq3.2: J*c == eps/s**3*c",
               "claim other: P*ones == 0")


@pytest.mark.parametrize("command", ["check", "report"])
def test_only_unknown_label_exit_2_with_labels_that_start_with_it(tmp_path, capsys, command):
    (tmp_path / "d.md").write_text(LABELLED)
    extra = ["-o", str(tmp_path / "out")] if command == "report" else []
    code, out, err = cli(capsys, command, str(tmp_path / "d.md"), "--only", "eq3", *extra)
    assert code == 2 and out == ""
    assert "no claim labelled 'eq3'" in err and err.rstrip().endswith(
        "labels starting with it: eq3.1, eq3.2")
    assert not (tmp_path / "out").exists()  # nothing was written


def test_only_typo_suggests_near_labels(tmp_path, capsys):
    (tmp_path / "d.md").write_text(LABELLED)
    code, _, err = cli(capsys, "check", str(tmp_path / "d.md"), "--only", "othr")
    assert code == 2 and "did you mean other" in err


# --- walking folders --------------------------------------------------------------------------

def _tree(root: Path) -> None:
    good = doc("use layernorm", "claim a: J*ones == 0")
    for rel in [".venv/lib/x.md", "venv2/notes.md", "build/x.md", "dist/x.md", "pkg.egg-info/x.md",
                ".hidden/x.md", "symnorm-report/report.md", "out/report.md", "node_modules/x.md",
                "ignored/x.md", "sub/skip.md", "keep/ok.md", "top.md"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(good)
    (root / "venv2" / "pyvenv.cfg").write_text("home = /usr\n")
    (root / "out" / "evidence.json").write_text("{}")
    (root / "out" / "report.html").write_text("<html></html>")
    (root / ".gitignore").write_text("ignored/\n*skip.md\n")
    (root / "README.md").write_text("# no symnorm block here\n")


def test_folder_walk_skips_hidden_venv_build_reports_and_gitignored(tmp_path):
    _tree(tmp_path)
    found = [p.relative_to(tmp_path).as_posix() for p, _ in find_documents([tmp_path])]
    assert found == ["README.md", "keep/ok.md", "top.md"]


def test_folder_walk_from_inside_a_repository(tmp_path, monkeypatch):
    """`symnorm check .` and `symnorm check sub` in a repository: the top .gitignore holds."""
    _tree(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "keep" / "ignored").mkdir()
    (tmp_path / "keep" / "ignored" / "x.md").write_text("x")
    (tmp_path / "keep" / "skip.md").write_text("x")
    monkeypatch.chdir(tmp_path)
    assert [p.as_posix() for p, _ in find_documents(["."])] == \
        ["README.md", "keep/ok.md", "top.md"]
    monkeypatch.chdir(tmp_path / "keep")
    assert [p.as_posix() for p, _ in find_documents(["."])] == ["ok.md"]


def test_folder_walk_cli_checks_only_documents(tmp_path, capsys):
    _tree(tmp_path)
    code, out, err = cli(capsys, "check", str(tmp_path))
    assert code == 0, out + err
    assert "(2 claims in 2 documents," in out.splitlines()[-1]  # README.md has no block


def test_named_gitignored_folder_is_walked(tmp_path):
    _tree(tmp_path)
    (tmp_path / ".git").mkdir()
    found = [p.name for p, _ in find_documents([tmp_path / "ignored"])]
    assert found == ["x.md"]


def test_named_file_without_a_block_is_an_error(tmp_path, capsys):
    f = tmp_path / "pyproject.toml"
    f.write_text("[project]\nname = 'x'\n")
    code, out, _err = cli(capsys, "check", str(f))
    assert code == 2
    assert f"{f}: no ```symnorm block" in out


def test_folder_without_documents_says_so(tmp_path, capsys):
    (tmp_path / "README.md").write_text("# hello\n")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "x.md").write_text(doc("use layernorm", "claim a: J*ones == 0"))
    code, out, err = cli(capsys, "check", str(tmp_path))
    assert code == 2 and out == ""
    assert err.startswith(f"symnorm check: error: no derivation documents (Markdown files "
                          f"with a ```symnorm block) in {tmp_path}")


# --- zoo, --timeout, --dps, usage, --help -------------------------------------------------------

def test_zoo_sizes_as_separate_words(capsys):
    code, out, _ = cli(capsys, "zoo", "--layout", "N L D", "--sizes", "N=8", "L=128", "D=512")
    assert code == 0 and out.splitlines()[0] == "layout N L D  sizes N=8 L=128 D=512"
    code, out, _ = cli(capsys, "zoo", "--layout", "N L D", "--sizes", "N=8 L=128", "D=4")
    assert code == 0 and out.splitlines()[0] == "layout N L D  sizes N=8 L=128 D=4"


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "3601", "soon"])
def test_timeout_out_of_range(tmp_path, capsys, value):
    code, out, err = cli(capsys, "check", "--paper", "--timeout", value)
    assert code == 2 and out == ""
    assert err.splitlines()[-1] == ("symnorm check: error: argument --timeout: must be more "
                                    f"than 0 and at most 3600 seconds (got {value})")


@pytest.mark.parametrize("command", ["derive", "check", "report"])
def test_one_dps_range_stated_in_every_help(capsys, command):
    code, out, _ = cli(capsys, command, "--help")
    assert code == 0 and "(30..1000, default 50)" in " ".join(out.split())
    code, _, err = cli(capsys, command, "--dps", "29")
    assert code == 2 and "must be a whole number of digits from 30 to 1000 (got 29)" in err


@pytest.mark.parametrize("command", ["derive", "check", "report", "zoo"])
def test_usage_error_prints_the_commands_usage(capsys, command):
    code, out, err = cli(capsys, command, "--bogus")
    assert code == 2 and out == ""
    assert err.startswith(f"usage: symnorm {command} ")
    assert err.rstrip().endswith(f"symnorm {command}: error: unrecognized arguments: --bogus")


def test_top_level_help_is_for_users(capsys):
    code, out, _ = cli(capsys, "--help")
    assert code == 0
    assert "dispatcher" not in out and "commands/" not in out
    for command in ("derive", "check", "report", "zoo"):
        assert re.search(rf"^  symnorm {command} ", out, re.MULTILINE), command
    assert "exit codes:" in out


EXIT_LINES = ["0  every claim proved, proved-for or confirmed",
              "1  some claim refuted; this wins over errors",
              "2  no claim refuted, but some claim is error or undecided; or a usage error"]


@pytest.mark.parametrize("command", [None, "check", "report"])
def test_exit_codes_in_help(capsys, command):
    _, out, _ = cli(capsys, *([command] if command else []), "--help")
    for line in EXIT_LINES:
        assert line in out


def test_exit_codes_in_readme():
    text = " ".join((ROOT / "README.md").read_text().split())
    for line in EXIT_LINES:
        assert " ".join(line.split()) in text


def test_exit_codes_refuted_wins_over_error(tmp_path, capsys):
    (tmp_path / "d.md").write_text(doc("use layernorm", "claim ok: J*ones == 0",
                                       "claim bad: J*ones == ones", "claim err: J*ones == = 0"))
    assert main(["check", str(tmp_path / "d.md"), "--only", "ok"]) == 0
    assert main(["check", str(tmp_path / "d.md"), "--only", "bad"]) == 1
    assert main(["check", str(tmp_path / "d.md"), "--only", "err"]) == 2
    assert main(["check", str(tmp_path / "d.md")]) == 1
    capsys.readouterr()


# --- JSON values, columns, grammar ------------------------------------------------------------

def test_json_values_are_json_with_full_precision(tmp_path, capsys):
    (tmp_path / "d.md").write_text(doc("use layernorm", "claim bad: J*c == c/s",
                                       "claim sc: v >= 0"))
    code, out, _ = cli(capsys, "check", str(tmp_path / "d.md"), "--json")
    assert code == 1
    claims = {c["label"]: c for c in json.loads(out)["claims"]}
    ce = claims["bad"]["counterexample"]
    d = int(ce["d"])
    assert isinstance(ce["lhs"], list) and len(ce["lhs"]) == d
    assert all(isinstance(x, str) and len(x.strip("-").replace(".", "")) >= 40
               for x in ce["lhs"] + ce["rhs"])
    for row in claims["bad"]["evidence"] + claims["sc"]["evidence"]:
        for side in ("lhs", "rhs"):
            value = row[side]
            assert isinstance(value, (str, list)) and "[[" not in json.dumps(value)[:1]
            if isinstance(value, str):
                float(value)  # a number, not a Python repr
    # what -v prints is in the JSON without -v
    assert claims["sc"]["statement"] and "notes" in claims["sc"] and "steps" in claims["sc"]


def test_check_help_says_v_changes_nothing_in_json(capsys):
    _, out, _ = cli(capsys, "check", "--help")
    assert "-v changes nothing in it" in " ".join(out.split())


def test_columns_stay_aligned_with_long_labels(tmp_path, capsys):
    (tmp_path / "d.md").write_text(doc("use layernorm",
                                       "claim a_label_much_longer_than_twenty_two: J*ones == 0",
                                       "claim b: P*ones == 0"))
    code, out, _ = cli(capsys, "check", str(tmp_path / "d.md"))
    rows = out.splitlines()[:3]
    starts = {row.index("every") if "every" in row else row.index("scope") for row in rows}
    assert code == 0 and len(starts) == 1
    where = str(tmp_path)
    assert len({row.index(where) if where in row else row.index("where") for row in rows}) == 1


def test_confirmed_scope_reads_d_equals():
    text = doc("scalar b",
               "claim e: log(b**2 + 1) + log(b**2 + 2) == log((b**2 + 1)*(b**2 + 2))")
    (v,) = check_text(text, sandbox=False).verdicts
    assert v.status == "confirmed"
    assert re.fullmatch(r"\d+ points at d = \d+(\.\.\d+|(, \d+)*)", v.scope), v.scope


def test_derive_d2_messages(capsys):
    code, out, _ = cli(capsys, "derive", "--d", "2", "--no-any-d")
    assert code == 0
    assert "tr J == eps/s**3" in out and "0/s" not in out
    assert "0 vectors" not in out and "(no vectors to check at d = 2)" in out
    code, out, _ = cli(capsys, "derive", "--no-any-d")
    assert "tr J == 1/s + eps/s**3" in out and "(1 vector)" in out and "1 vectors" not in out


def test_pytest_plugin_says_has_an_error():
    from symnorm.check.pytest_plugin import _was
    assert _was("error") == "has an error" and _was("refuted") == "is refuted"


# --- missing `use`, vector powers --------------------------------------------------------------

def _message(text: str, label: str) -> str:
    (v,) = [v for v in check_text(text, sandbox=False).verdicts if v.label == label]
    assert v.status == "error"
    return v.message


def test_unknown_function_suggests_the_vocabulary():
    m = _message(doc("vector x", "claim a: N(x).T*N(x) == d"), "a")
    assert "unknown function 'N'" in m and "`use layernorm` defines it" in m
    m = _message(doc("vector x", "claim a: RMS(x).T*RMS(x) == d"), "a")
    assert "`use rmsnorm` defines it" in m
    m = _message(doc("vector x", "claim a: Q(x) == x"), "a")
    assert "defines it" not in m


def test_unknown_name_suggests_the_vocabulary():
    m = _message(doc("vector x", "claim a: J*x == x"), "a")
    assert "unknown name 'J'" in m and "`use layernorm` defines it" in m


def test_vector_power_suggests_the_squared_length():
    m = _message(doc("use layernorm", "claim a: N(x)**2 == d"), "a")
    assert "N(x).T*N(x) or norm(N(x))**2" in m
    m = _message(doc("use layernorm", "claim a: (x + c)**2 == d"), "a")
    assert "(x + c).T*(x + c) or norm(x + c)**2" in m


# --- derive --rms names --------------------------------------------------------------------------

def test_derive_rms_uses_the_rmsnorm_names(capsys):
    code, out, _ = cli(capsys, "derive", "--rms", "--no-any-d")
    assert code == 0
    assert "r = sqrt(x^T x/d + eps)" in out and "RMS(x) = x/r" in out
    assert "Jacobian Jr" in out and "Jr == I/r - x x^T/(d r**3)" in out
    assert not re.search(r"\bs = |\bv = |/s\b", out)
    code, out, _ = cli(capsys, "derive", "--rms", "--no-any-d", "--json")
    data = json.loads(out)
    assert {"r", "r_float", "mean_square"} <= set(data) and not {"s", "variance"} & set(data)
    from symnorm.lang.vocab import vocabulary_text
    assert "let r = sqrt(x.T*x/d + eps)" in vocabulary_text("rmsnorm", {})


def test_only_definitions_says_nothing_was_checked(tmp_path):
    """Every row `defined`: exit 0 as README documents, and a line on stderr that no claim
    was checked (red team 9: it used to pass silently)."""
    (tmp_path / "d.md").write_text("```symnorm\nscalar a\n```\n```latex d1\nb = 2a\n```\n")
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", "d.md"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0 and "1 defined" in p.stdout
    assert "no claim was checked" in p.stderr
    (tmp_path / "d.md").write_text("```symnorm\nscalar a\nclaim c: a == a\n```\n")
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", "d.md"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0 and "no claim was checked" not in p.stderr
