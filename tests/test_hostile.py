"""Hostile claim documents: none executes code, none hangs, each ends as error/undecided/refuted."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.check.run import check_text

ROOT = Path(__file__).resolve().parents[1]
MARK = "/tmp/symnorm-pwned-marker"

INJECTIONS = [
    f"claim x: __import__('os').system('touch {MARK}') == 0",
    f"claim x: eval(\"open('{MARK}','w')\") == 0",
    f"claim x: exec('open(\"{MARK}\",\"w\")') == 0",
    "claim x: ().__class__.__bases__[0].__subclasses__() == 0",
    f"let y = open('{MARK}', 'w')",
    f"claim x: sympify('open(\"{MARK}\",\"w\")') == 0",
    "claim x: lambda: 0 == 0",
    "claim x: x.__class__ == 0",
    f"use os(system='touch {MARK}')",
    f"latex L: \\input{{{MARK}}}",
    "latex L: \\write18{touch " + MARK + "}",
    "latex L: \\immediate\\write18{rm -rf /}",
]

HEAVY = [
    "claim x: 10**10**10 == 1",
    "claim x: 2**2**2**2**2**2 == 3",
    "claim x: factorial(10**9) == 1",
    "claim x: " + "9" * 5000 + " == 1",
    "claim x: " + "(" * 300 + "1" + ")" * 300 + " == 1",
    "claim x: " + "1+" * 60000 + "1 == 1",
    "claim x: b**(10**6) == b**(10**6) + 1",
    "claim x: b**(1/10**7) == 1",
    "claim x: 1.5e99999 == 1",
    "claim x: sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(b**2+1)))))))) == 0",
    "claim x: " + "-" * 500 + "1 == 1",
    "claim x: jacobian(jacobian(jacobian(N(x), x), x), x) == 0",
    "claim x: N(N(N(N(N(N(N(N(x)))))))) == N(x)",
    "claim x: 1/0 == 1",
    "claim x: sqrt(-1) == 0",
    "claim x: log(0) == 0",
    "claim x: b == b == b",
    "claim x: J*J*J*J*J*J*J*J*J*J*J*J*J*J*J*J == J",
    "claim x: P**1000000 == P",
    "claim x: \x00 == 0",
    "claim x: ☃ == 0",
    "claim : 1 == 1",
    "let d = 100000",
    "use layernorm(d=1)",
    "use layernorm(eps=-1)",
    "let N = 3",
    "let F(y) = F(y)",
    "scalar I",
    "vector eps",
]


def _doc(line: str) -> str:
    return "```symnorm\nuse layernorm\nscalar b\n" + line + "\n```\n"


@pytest.fixture(autouse=True)
def _no_marker():
    Path(MARK).unlink(missing_ok=True)
    yield
    assert not Path(MARK).exists(), "a hostile document executed code"


@pytest.mark.parametrize("line", INJECTIONS + HEAVY, ids=range(len(INJECTIONS + HEAVY)))
def test_hostile_claim_is_contained(line):
    res = check_text(_doc(line), file="hostile.md", sandbox=True, timeout=3.0)
    assert res.verdicts, "every hostile line must produce a verdict"
    for v in res.verdicts:
        assert v.status in ("error", "undecided", "refuted"), (line[:80], v.status, v.message)
        if v.status == "error":
            assert v.file == "hostile.md" and v.line >= 1 and v.column >= 1
            assert v.message


def test_rest_of_document_still_checked_after_a_hostile_claim():
    text = ("```symnorm\nuse layernorm\nscalar b\nclaim bomb: 10**10**10 == 1\n"
            "claim x: " + "(" * 300 + "1" + ")" * 300 + " == 1\n"
            "claim good: J*ones == 0\n```\n")
    res = {v.label: v for v in check_text(text, sandbox=True, timeout=3.0).verdicts}
    assert res["good"].status == "proved"
    assert res["x"].status == "error" and "nested too deeply" in res["x"].message


def test_huge_document_and_line_are_rejected(tmp_path):
    f = tmp_path / "big.md"
    f.write_text("```symnorm\nclaim x: " + "1+" * 60_000 + "1 == 1\n```\n")
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", str(f)], capture_output=True, check=False,
                       text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "too long" in p.stdout and "Traceback" not in p.stderr
    f.write_bytes(b"x" * 3_000_000)
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", str(f)], capture_output=True, check=False,
                       text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "larger than" in p.stdout


def test_binary_file_is_a_clear_error(tmp_path):
    f = tmp_path / "bin.md"
    f.write_bytes(b"\xff\xfe\x00garbage")
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", str(f)], capture_output=True, check=False,
                       text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "UTF-8" in p.stdout and "Traceback" not in p.stderr


def test_figure_caption_is_inert_text():
    line = f"figure eps_scale caption=\"{{__import__('os').system('touch {MARK}')}}\""
    res = check_text(_doc(line), file="hostile.md", sandbox=True, timeout=3.0)
    # figures take no caption option: a located error naming it, nothing executed
    (v,) = res.verdicts
    assert v.status == "error" and "caption" in v.message and v.line == 4
    assert not res.figures


def test_duplicate_label_is_an_error():
    res = check_text(_doc("claim x: 1 == 1\nclaim x: 2 == 2"), sandbox=False)
    assert [v.status for v in res.verdicts] == ["proved", "error"]
    assert "duplicate claim label" in res.verdicts[1].message


# --- issue 15: the terminal, the shell and the file system -----------------------------

from symnorm.safetext import reproduce_command, visible


def _cli(*args: str, cwd: Path = ROOT, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symnorm", *args], capture_output=True,
                          check=False, text=True, timeout=timeout, cwd=cwd)


BAD_LABELS = ["x;touch${IFS}/tmp/p;#", "a$(id)", "a`id`", "a b", "a'b", "-x", "1a",
              "a\x1b[32mb", "a\u202eb", "a|b", "a>b", "\u0430"]


@pytest.mark.parametrize("label", BAD_LABELS, ids=range(len(BAD_LABELS)))
@pytest.mark.parametrize("form", ["fence", "statement"])
def test_labels_outside_the_documented_alphabet_are_errors(label, form):
    if form == "fence":  # ~~~: a backtick fence's info string cannot hold a backtick
        text = f"~~~latex {label}\nx = 2\n~~~\n"
    else:
        text = f"```symnorm\nscalar b\nlatex {label}: b = 2\n```\n"
    (v,) = check_text(text, file="l.md", sandbox=False).verdicts
    assert v.status == "error", v.message
    assert "[A-Za-z_][A-Za-z0-9_.-]*" in v.message or (
        " " in label and "malformed latex statement" in v.message), v.message


@pytest.mark.parametrize("label", ["z", "eq.3", "a-b_c.2", "_x"])
def test_labels_inside_the_alphabet_are_accepted(label):
    (v,) = check_text(f"```latex {label}\n1 + 1 = 2\n```\n", sandbox=False).verdicts
    assert v.label.split(".")[:-1] == label.split(".") and v.status == "proved"  # LABEL.1


QUOTED = [("notes.md", "z"), ("x;touch${IFS}/tmp/p;#.md", "ok"), ("a b'c\".md", "a.b-1"),
          ("$(id).md", "q"), ("`id`.md", "q"), ("n\x1b[2Jx.md", "q"), ("-rf.md", "q"),
          ("r\u202etxt.md", "q"), ("nl\nx.md", "q"), ("tab\tx.md", "q")]


@pytest.mark.parametrize("file,label", QUOTED, ids=range(len(QUOTED)))
def test_reproduce_line_is_one_command_with_exactly_its_arguments(file, label, tmp_path):
    line = reproduce_command(file, label)
    assert visible(line, newlines=False) == line  # nothing for the terminal to obey
    # run it in bash with `symnorm` replaced by a function printing its arguments
    script = "symnorm() { printf '%s\\0' \"$@\"; }\n" + line + "\n"
    out = subprocess.run(["bash", "-c", script], capture_output=True, check=True,
                         cwd=tmp_path, timeout=30).stdout.decode("utf-8").split("\0")[:-1]
    expected_file = f"./{file}" if file.startswith("-") else file
    assert out == ["check", expected_file, "--only", label]
    assert list(tmp_path.iterdir()) == []  # nothing was created


def test_pasted_reproduce_line_runs_nothing_else(tmp_path):
    marker = tmp_path / "p"
    name = "x;touch${IFS}p;#.md"
    (tmp_path / name).write_text("```symnorm\nscalar b\nclaim ok: b == b + 1\n```\n")
    p = _cli("check", str(tmp_path), "--timeout", "10")
    (line,) = [ln.split("reproduce: ", 1)[1] for ln in p.stdout.splitlines()
               if "reproduce: " in ln]
    assert subprocess.run(["bash", "-n", "-c", line], check=False).returncode == 0
    q = subprocess.run(["bash", "-c", line], capture_output=True, text=True, check=False,
                       cwd=tmp_path, timeout=120,
                       env={**os.environ, "PATH": f"{Path(sys.executable).parent}:"
                            f"{os.environ.get('PATH', '')}"})
    assert not marker.exists()
    assert q.returncode == 1 and "refuted    ok" in q.stdout


VISIBLE = [("\x1b[32mproved", "\\x1b[32mproved"), ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
           ("a\rb", "a\\x0db"), ("a\bb", "a\\x08b"), ("\x9b31m", "\\x9b31m"),
           ("ab\u202edc", "ab<U+202E>dc"), ("\u2066x\u2069", "<U+2066>x<U+2069>"),
           ("a\u200fb", "a<U+200F>b"), ("a\u2028b", "a<U+2028>b"), ("a\x00b", "a\\x00b"),
           ("a\x7fb", "a\\x7fb"), ("\ufeffx", "<U+FEFF>x"), ("plain é ∂ ✓", "plain é ∂ ✓"),
           ("two\nlines\tok", "two\nlines\\x09ok")]  # a tab too (docs/security.md)


@pytest.mark.parametrize("raw,shown", VISIBLE, ids=range(len(VISIBLE)))
def test_control_and_bidi_characters_are_shown_not_obeyed(raw, shown):
    assert visible(raw) == shown


def test_terminal_output_of_check_holds_no_control_bytes(tmp_path):
    doc = tmp_path / "t\x1b]0;pwn\x07.md"
    doc.write_text("```symnorm\nscalar b\nclaim ok: b == b + 1\n"
                   "claim e\x1b[32m: b == \u202e1\nlatex y\u202e: b = 1\n```\n")
    for args in (["check", str(tmp_path)], ["check", str(tmp_path), "-v"],
                 ["check", str(doc), "--only", "no\x1b[2J"]):
        p = _cli(*args, "--timeout", "10")
        text = p.stdout + p.stderr
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)
        assert "Traceback" not in text
    assert "\\x1b]0;pwn\\x07" in _cli("check", str(tmp_path)).stdout


LOOKALIKE_DIGITS = ["\u09ea", "\u0664", "\U0001d7d2", "\uff14", "\u0e54", "\u00b2", "\u2074"]


@pytest.mark.parametrize("digit", LOOKALIKE_DIGITS, ids=range(len(LOOKALIKE_DIGITS)))
@pytest.mark.parametrize("form", ["claim x: {} == 4", "latex x: {} = 4", "claim x: 1{} == 14",
                                  "claim x: 1e{} == 10000"])
def test_non_ascii_digits_are_not_numbers(digit, form):
    (v,) = check_text("```symnorm\n" + form.format(digit) + "\n```\n", sandbox=False).verdicts
    assert v.status == "error", (digit, form, v.status)


@pytest.mark.parametrize("text", ["\u09ea", "1e99999999", "1e-999999", "\uff11/2", "1_0"])
def test_exact_numbers_from_options_are_ascii_and_bounded(text):
    from symnorm.errors import SpecError
    from symnorm.report.figopts import parse_rational
    from symnorm.spec import as_rational

    with pytest.raises(SpecError):
        as_rational(text, "eps")
    with pytest.raises(ValueError):
        parse_rational(text)


@pytest.mark.parametrize("args", [["derive", "--x", "1e99999999,2,3"],
                                  ["derive", "--eps", "1e-999999"],
                                  ["derive", "--eps", "1e-99999999"],
                                  ["derive", "--x", "\u09ea,2,3"]])
def test_derive_refuses_huge_exponents_at_once(args):
    p = _cli(*args, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("symnorm derive")


def test_layer_api_refuses_huge_exponents_at_once():
    import time

    import symnorm
    from symnorm.errors import SpecError

    t0 = time.monotonic()
    with pytest.raises(SpecError, match="exponent"):
        symnorm.layer_norm(d=3, eps="1e-99999999")
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize("command", ["check", "report"])
def test_named_pipe_is_refused_not_waited_on(command, tmp_path):
    fifo = tmp_path / "fifo.md"
    os.mkfifo(fifo)
    p = _cli(command, str(fifo), *(["-o", str(tmp_path / "o")] if command == "report"
                                   else []), timeout=60)
    assert p.returncode == 2 and "not a regular file" in p.stdout + p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("command", ["check", "report"])
def test_size_cap_is_checked_before_reading(command, tmp_path):
    big = tmp_path / "big.md"
    with open(big, "wb") as fh:  # a 1 GB sparse file: reading it would take the memory
        fh.truncate(1 << 30)
    p = subprocess.run(
        [sys.executable, "-c", ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, "
                                "(1 << 30, 1 << 30)); from symnorm.cli import main; "
                                "sys.exit(main(sys.argv[1:]))"),
         command, str(big), *(["-o", str(tmp_path / "o")] if command == "report" else [])],
        capture_output=True, text=True, check=False, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "larger than 2000000 bytes" in p.stdout + p.stderr
    assert "Traceback" not in p.stderr and not (tmp_path / "o").exists()


LINE_BREAKS = ["\f", "\v", "\x85", "\u2028", "\u2029", "\x1c"]


@pytest.mark.parametrize("brk", LINE_BREAKS, ids=[repr(b) for b in LINE_BREAKS])
def test_only_markdown_line_ends_split_statements(brk):
    text = ("```symnorm\nscalar b\n# a comment" + brk + "claim hidden: b == b + 1\n"
            "claim seen: b == b\n```\n")
    res = check_text(text, sandbox=False)
    assert [(v.label, v.line) for v in res.verdicts] == [("seen", 4)]


@pytest.mark.parametrize("wrapper", [("<div>\n\n", "\n</div>\n"), ("<!--\n", "-->\n"),
                                     ("<details>\n", "</details>\n"), ("> ", ""),
                                     ("- item\n\n  ", "")])
def test_fences_inside_html_or_containers_are_checked(wrapper):
    head, tail = wrapper
    fence = "```symnorm\nscalar b\nclaim inner: b == b + 1\n```\n"
    if head in ("> ",):
        fence = "".join("> " + ln + "\n" for ln in fence.splitlines())
        head = ""
    elif head.startswith("- "):
        fence = "".join("  " + ln + "\n" for ln in fence.splitlines())
        head = "- item\n\n"
    res = check_text("# T\n\n" + head + fence + tail, sandbox=False)
    assert [v.label for v in res.verdicts] == ["inner"]
    assert res.verdicts[0].status == "refuted"


def _children(pid: int) -> set[int]:
    out = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            pass
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")
@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_workers_die_with_their_parent(sig, tmp_path):
    import signal
    import time

    doc = tmp_path / "slow.md"
    doc.write_text("```symnorm\nuse layernorm\nclaim s1: N(N(N(N(N(N(N(N(x)))))))) == N(x)\n"
                   "claim s2: N(N(N(N(N(N(N(x))))))) == N(x)\n```\n")
    parent = subprocess.Popen([sys.executable, "-m", "symnorm", "check", str(doc),
                               "--timeout", "120"], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline, workers = time.monotonic() + 60, set()
        while time.monotonic() < deadline and not workers:
            time.sleep(0.2)
            workers = {c for c in _children(parent.pid) if _alive(c)}
        assert workers, "no worker started"
        time.sleep(1.0)
        workers = {c for c in _children(parent.pid) if _alive(c)}
        assert workers, "the workers finished before the test could kill the parent"
        parent.send_signal(getattr(signal, sig))
        parent.wait(timeout=30)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.2)
        left = [w for w in workers if _alive(w)]
        for w in left:  # clean up what we started before failing
            os.kill(w, signal.SIGKILL)
        assert not left, f"workers outlived their parent: {left}"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_pytest_plugin_reads_within_the_cap_and_skips_pipes(tmp_path):
    os.mkfifo(tmp_path / "fifo.md")
    with open(tmp_path / "big.md", "wb") as fh:
        fh.truncate(1 << 30)
    (tmp_path / "t.md").write_text("```symnorm\nscalar b\nclaim bad\u202e: b == b + 1\n"
                                   "claim ok: b == b\n```\n")
    from importlib.metadata import entry_points
    installed = any(ep.name == "symnorm" for ep in entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", "symnorm.check.pytest_plugin"]
    p = subprocess.run([sys.executable, "-m", "pytest", *plugin, str(tmp_path), "-q",
                        "-p", "no:cacheprovider", "--rootdir", str(tmp_path)],
                       capture_output=True, check=False, text=True, timeout=300, cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "2 failed, 1 passed" in p.stdout, p.stdout + p.stderr  # big.md, line 3; ok
    assert "larger than 2000000 bytes" in p.stdout
    assert "\u202e" not in p.stdout
