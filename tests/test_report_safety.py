"""Hostile document text must come out inert: escaped in HTML, Markdown and LaTeX output."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symnorm.check.verdict import DocumentResult, Verdict
from symnorm.report.build import write_report
from symnorm.report.mathml import to_mathml
from symnorm.report.texsafe import escape_text, safe_math
from symnorm.safeio import MANIFEST

SAFE_MATH = [
    r"\frac{a}{b}", r"x^\top", r"\begin{pmatrix}1&2\\3&4\end{pmatrix}",
    r"\mathcal N_\epsilon(x)", r"a \le b", r"\left(\frac{1}{2}\right)", r"\{0, b\}",
    r"\operatorname{tr} J = \frac{d-2}{s} + \frac{\epsilon}{s^3}", r"\text{for } x > 0",
    r"\sqrt[3]{x}", r"x'^2", r"\begin{array}{cc}1&2\end{array}", r"\not=",
    r"\sum_{i=1}^m \widehat{x}_i^2", r"\left\langle a, b \right\rangle",
    r"\begin{array}{c|c}a&b\\c&d\end{array}", r"\sqrt[n]{x}", r"x'_1", r"x''",
    r"\begin{pmatrix}" + "&".join("1" * 10) + r"\end{pmatrix}",
    r"\begin{cases}1&x>0\\0&x\le 0\end{cases}",
]
UNSAFE_MATH = [
    r"\input{/etc/passwd}", r"\include{x}", r"\write18{rm -rf /}", r"\immediate\write18{x}",
    r"\openout1=x", r"\def\x{y}", r"\catcode`\@=11", r"\csname input\endcsname",
    r"^^5cinput{x}", r"\begin{filecontents}{x}", r"x % comment", r"#1", r"$x$",
    r"\frac{a}{b", r"}{", r"\href{javascript:alert(1)}{x}", r"\color{red}x", "\\text{\u00e9}",
    r"\newcommand\x{}", r"\let\a\b", r"\expandafter\x", r"\scantokens{x}", r"\usepackage{x}",
    r"\@", "{" * 50 + "}" * 50, "", "x" * 5000, "a\x00b",
    # safe but would stop pdflatex: structure errors
    r"a \\ input", r"x^2'", r"x^2^3", r"\left( x", r"x \right)", r"\frac{a}",
    r"\text{a_b}", r"\begin{array}{q}1\end{array}", r"\begin{pmatrix}{a\\b}\end{pmatrix}",
    r"\middle|", r"1 & 2", r"\begin{pmatrix}a\end{bmatrix}", r"\left( x }", r"\bm{x}",
    r"a \over b", r"x^", r"_x",
    # issue 15: these stopped pdflatex in report.tex
    r"\begin{split}a&=b\\c&=d\end{split}", r"\begin{array}{c}a&b\end{array}",
    r"\begin{array}{|}a\end{array}", r"a'_1'", r"x^2'", r"\sqrt[\sqrt[3]{2}]{x}",
    r"\sqrt[{2}]{x}", r"\begin{pmatrix}" + "&".join("1" * 11) + r"\end{pmatrix}",
    r"\begin{cases}1&2&3\end{cases}", r"\begin{gathered}a&b\end{gathered}",
]


@pytest.mark.parametrize("latex", SAFE_MATH)
def test_whitelist_accepts_ordinary_math(latex: str) -> None:
    assert safe_math(latex) == latex.strip()


@pytest.mark.parametrize("latex", UNSAFE_MATH)
def test_whitelist_rejects_commands_tex_would_execute(latex: str) -> None:
    assert safe_math(latex) is None


_MACROS = re.compile(r"\\(textbackslash|textasciicircum|textasciitilde|textless|"
                     r"textgreater|textbar|ldots|allowbreak)\{\}")


@settings(max_examples=300, deadline=None)
@given(st.text())
@example("x\u1d40 \u00b2")
def test_escaped_text_has_no_live_tex(text: str) -> None:
    out = escape_text(text)
    plain = re.sub(r"\\textsuperscript\{[\dT]\}", "", out)  # ², ³ and ᵀ (texsafe.py)
    plain = _MACROS.sub("", plain)
    plain = re.sub(r"\$\\[a-zA-Z]+\$", "", plain)  # $\le$ and friends from the table
    plain = re.sub(r"\\[{}#$%&_]", "", plain)
    assert not re.search(r"[\\#$%&_^{}]", plain), (text, out)
    assert out.isascii()


def test_mathml_is_rebuilt_from_a_whitelist() -> None:
    assert to_mathml(r"\text{<script>alert(1)</script>}") == (
        r'<code class="tex">\text{&lt;script&gt;alert(1)&lt;/script&gt;}</code>')
    assert to_mathml(r"\href{javascript:alert(1)}{x}").startswith("<code")
    out = to_mathml(r"\frac{a}{b}", display=True)
    assert out.startswith('<math xmlns="http://www.w3.org/1998/Math/MathML"')
    assert "<mfrac>" in out and 'display="block"' in out


HOSTILE_DOC = r"""# Hostile <script>alert('title')</script>

Raw <script>alert(1)</script> and <img src=x onerror=alert(2)> and
[click](javascript:alert(3)) and [ok](https://example.org) and ![pic](http://evil/x.png)
and math $\input{/etc/passwd}$ and $\text{<b>bold</b>}$ and prose \write18{rm -rf /}
and \immediate\write18{touch pwned} and ^^5c and 100% of #1 & co.

<iframe src="https://evil"></iframe>

```symnorm
claim z: x == x  # \input{x}
```

```python
\end{verbatim}\input{/etc/passwd}
```
"""


def _hostile_result() -> DocumentResult:
    return DocumentResult("h.md", [
        Verdict("h.md", 10, "<script>alert(4)</script>", r"\write18{x} <b>", "refuted",
                scope="<i>every</i> d", assumptions=[r"\input{a}", "<u>x</u>"],
                engine="<e>", latex=r"\input{x}", message=r"<script>m</script>\def\x{}",
                counterexample={"<k>": r"\openout1", "x": "1/2"},
                steps=[{"text": r"\catcode`\^=7 <s>", "latex": r"\write18{ls}"}],
                evidence=[{"d": 3, "point": {"x": "<p>"}, "dps": 50, "lhs": r"\input",
                           "rhs": "&amp;", "digits": 1}],
                notes=["<note>"]),
    ])


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile")
    write_report(HOSTILE_DOC, _hostile_result(), out, source_path="h.md<x>", date="2026-01-01")
    return out


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_html_output_is_inert(hostile: Path) -> None:
    text = (hostile / "report.html").read_text()
    parser = _Tags()
    parser.feed(text)
    names = {t for t, _ in parser.tags}
    assert not names & {"script", "iframe", "object", "embed", "b", "u", "i", "e", "note"}
    for tag, attrs in parser.tags:
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
        if tag == "img":
            assert (attrs.get("src") or "").startswith("data:image/svg+xml;base64,")
        for key in ("href", "src", "action"):
            value = (attrs.get(key) or "").strip().lower()
            assert not value.startswith(("javascript:", "vbscript:", "data:text")), value
        assert tag != "a" or attrs.get("href") in ("https://example.org", "http://evil/x.png",
                                                   None) or attrs["href"].startswith("#")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&lt;script&gt;alert(4)&lt;/script&gt;" in text
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert "http://evil/x.png" not in re.findall(r'src="([^"]*)"', text)


def test_html_shows_unsafe_math_as_code(hostile: Path) -> None:
    text = (hostile / "report.html").read_text()
    assert r'<code class="tex">\input{/etc/passwd}</code>' in text
    assert r'<code class="tex">\text{&lt;b&gt;bold&lt;/b&gt;}</code>' in text


def _control_words(tex: str) -> set[str]:
    """Control words as TeX reads them, left to right (``\\\\input`` holds none)."""
    return {w for w in re.findall(r"\\(?:([A-Za-z]+)|.)", tex, re.DOTALL) if w}


FORBIDDEN_TEX = {"input", "include", "write", "openout", "openin", "immediate", "def", "edef",
                 "gdef", "xdef", "catcode", "csname", "endcsname", "let", "read", "special",
                 "scantokens", "expandafter", "jobname", "href", "url", "directlua",
                 "lowercase", "uppercase", "verbatim"}


def test_latex_output_is_inert(hostile: Path) -> None:
    tex = (hostile / "report.tex").read_text()
    words = _control_words(tex)
    assert not words & FORBIDDEN_TEX, words & FORBIDDEN_TEX
    assert "^^" not in tex
    assert r"\textbackslash{}write18\{rm -rf /\}" in tex
    assert r"\textbackslash{}input\{/\allowbreak{}etc/\allowbreak{}passwd\}" in tex
    assert r"100\% of \#1 \& co." in tex
    # nothing of the document may reach the preamble
    preamble = tex.split(r"\begin{document}")[0]
    assert "alert" not in preamble.replace(r"\title{Hostile \textless{}script\textgreater{}"
                                           r"alert('title')", "")


def test_markdown_output_keeps_report_text_in_code_or_escaped(hostile: Path) -> None:
    md = (hostile / "report.md").read_text()
    assert "`<script>alert(4)</script>`" in md  # the label, as a code span
    assert "\\<script\\>m\\</script\\>" in md  # the message, escaped
    assert "$$\n\\input" not in md  # unsafe statement LaTeX is never emitted as math
    assert "```text\n\\write18{x} <b>\n```" in md


_FRAGMENTS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "javascript:x",
              "[a](javascript:alert(1))", "<a href='javascript:x'>y</a>", "$", "$$", "\\",
              "\\input{x}", "\\write18{x}", "\\def\\x{}", "^^5c", "%", "#", "&", "{", "}",
              "`", "```", "\n", "\n\n", "*", "_", "|", "<", ">", "\"", "'", "x", " ",
              "\\frac{a}{b}", "\\text{<b>}", "<!--", "-->", "<style>", "]]>", "\u00e9"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=40),
       st.lists(st.sampled_from(_FRAGMENTS), max_size=8))
def test_random_hostile_text_stays_inert(prose: list[str], label: list[str]) -> None:
    from symnorm.report.html import HtmlPrinter
    from symnorm.report.latex import LatexPrinter
    from symnorm.report.model import build_model

    text = "".join(label)
    doc = "# T\n\n" + "".join(prose) + "\n"
    v = Verdict("h.md", 3, text or "l", text, "refuted", latex=text, message=text,
                steps=[{"text": text, "latex": text}], counterexample={text or "k": text})
    model = build_model(doc, DocumentResult("h.md", [v]), date="")
    page = HtmlPrinter().doprint(model)
    parser = _Tags()
    parser.feed(page)
    for tag, attrs in parser.tags:
        assert tag not in ("script", "img", "a", "style") or (
            tag == "style" and not attrs) or (tag == "a" and "href" in attrs and not (
                attrs["href"] or "").lower().startswith("javascript")), (tag, attrs)
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    tex = LatexPrinter().doprint(model)
    assert not _control_words(tex) & FORBIDDEN_TEX
    assert "^^" not in tex


# --- issue 15: output folders, figures and limits in `report` ---------------------------

import os
import subprocess
import sys

from symnorm.safeio import UnsafeOutputError

ROOT = Path(__file__).resolve().parents[1]
NOTE = "# N\n\n```symnorm\nuse layernorm\nclaim z: J*ones == 0\nfigure batch_flip points=5\n```\n"


def _report(*args: str, cwd: Path = ROOT, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symnorm", "report", *args],
                          capture_output=True, check=False, text=True, timeout=timeout,
                          cwd=cwd)


def _one_line_error(p: subprocess.CompletedProcess) -> None:
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


LINKED = ["report.html", "report.md", "report.tex", "evidence.json", "figures"]


@pytest.mark.parametrize("name", LINKED)
def test_report_never_writes_through_a_link_in_the_output_folder(name, tmp_path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / ("victim_dir" if name == "figures" else "authorized_keys")
    if name == "figures":
        target.mkdir()
    else:
        target.write_text("ssh-ed25519 AAAA user\n")
    (out / name).symlink_to(target)
    with pytest.raises(UnsafeOutputError, match="symbolic link"):
        write_report(NOTE, DocumentResult("n.md", []), out, date="2026-01-01", sandbox=False)
    if name == "figures":
        assert list(target.iterdir()) == []
    else:
        assert target.read_text() == "ssh-ed25519 AAAA user\n"
    assert sorted(p.name for p in out.iterdir()) == [name]  # nothing written, no temp file


def test_report_refuses_a_linked_output_folder_in_one_line(tmp_path) -> None:
    doc = tmp_path / "n.md"
    doc.write_text(NOTE)
    (tmp_path / "real").mkdir()
    (tmp_path / "symnorm-report").symlink_to(tmp_path / "real")
    p = _report(str(doc), cwd=tmp_path)
    _one_line_error(p)
    assert "symbolic link" in p.stderr and list((tmp_path / "real").iterdir()) == []
    (tmp_path / "symnorm-report").unlink()
    (tmp_path / "symnorm-report").mkdir()
    (tmp_path / "symnorm-report" / "report.md").symlink_to(tmp_path / "victim")
    p = _report(str(doc), cwd=tmp_path)
    _one_line_error(p)
    assert not (tmp_path / "victim").exists()


BAD_OUTPUTS = [("file", ""), ("report.html", "dir"), ("figures", "file"),
               ("evidence.json", "dir")]


@pytest.mark.parametrize("name,kind", BAD_OUTPUTS)
def test_unusable_output_paths_are_one_line_errors(name, kind, tmp_path) -> None:
    doc = tmp_path / "n.md"
    doc.write_text(NOTE)
    out = tmp_path / "out"
    if kind == "":
        out.write_text("x")
    else:
        out.mkdir()
        (out / name).mkdir() if kind == "dir" else (out / name).write_text("x")
    p = _report(str(doc), "-o", str(out))
    _one_line_error(p)


def test_rewriting_a_report_replaces_files_atomically(tmp_path) -> None:
    out = tmp_path / "out"
    first = write_report(NOTE, DocumentResult("n.md", []), out, date="2026-01-01",
                         sandbox=False)
    inode = os.stat(first["report.md"]).st_ino
    second = write_report(NOTE, DocumentResult("n.md", []), out, date="2026-01-01",
                          sandbox=False)
    assert os.stat(second["report.md"]).st_ino != inode  # a new file renamed into place
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


HIDDEN = [
    ("<div>\n\n", "\n</div>\n"),
    ("<!--\n", "-->\n"),
    ("<details><summary>x</summary>\n\n", "\n</details>\n"),
]


@pytest.mark.parametrize("head,tail", HIDDEN)
def test_every_claim_block_the_report_shows_has_its_verdict(head, tail, tmp_path) -> None:
    from symnorm.check.run import check_text
    from symnorm.report.model import SourceBlock, build_model

    doc = ("# T\n\n#### \u2713 PROVED\n\n" + head
           + "```symnorm\nscalar b\nclaim hidden: b == b + 1\n```\n" + tail
           + "\n```symnorm\nscalar c\nclaim shown: c == c\n```\n")
    result = check_text(doc, file="t.md", sandbox=False)
    model = build_model(doc, result, date="")
    blocks = [i for i in model.items if isinstance(i, SourceBlock)]
    assert len(blocks) == 2 and {v.label for v in model.verdicts} == {"hidden", "shown"}
    assert model.summary["refuted"] == 1 and model.summary["proved"] == 1
    # a badge is a styled span built from a verdict; prose cannot make one
    from symnorm.report.html import HtmlPrinter
    page = HtmlPrinter().doprint(model)
    assert page.count('<span class="badge st-proved"') == 4  # summary, list, card, legend
    assert "<h4>\u2713 PROVED</h4>" in page


DATA_LINKS = ["[x](data:text/html;base64,PHNjcmlwdD4=)", "[x](data:image/png;base64,AAAA)",
              "![x](data:image/png;base64,AAAA)", "<data:image/png;base64,AAAA>",
              "[x](DATA:image/gif;base64,AA)", "[x]( data:image/webp;base64,AA)",
              "[x][r]\n\n[r]: data:image/jpeg;base64,AA", "[x](file:///etc/passwd)"]


@pytest.mark.parametrize("link", DATA_LINKS)
def test_data_and_file_urls_in_prose_are_not_links(link) -> None:
    from symnorm.report.html import HtmlPrinter
    from symnorm.report.model import build_model

    page = HtmlPrinter().doprint(build_model("# T\n\n" + link + "\n",
                                             DocumentResult("t.md", []), date=""))
    parser = _Tags()
    parser.feed(page)
    for tag, attrs in parser.tags:
        for key in ("href", "src"):
            value = (attrs.get(key) or "").strip().lower()
            assert not value.startswith(("data:", "file:")) or (
                tag == "link" or value.startswith("data:image/svg+xml;base64,")), (tag, attrs)


BAD_FIGURES = ["figure eps_scale d=4096 points=2001", "figure jacobian_spectrum x=1,1,1",
               "figure batch_spread sizes=4096 draws=10000", ("figure eps_scale d=2 eps=1,1,1,"
                "1,1,1,1,1,1,1,1,1,1,1,1,1,1"), "figure jacobian_spectrum x=1,2"]


@pytest.mark.parametrize("line", BAD_FIGURES)
def test_check_refuses_exactly_the_figures_report_cannot_draw(line, tmp_path) -> None:
    from symnorm.check.run import check_text

    doc = ("# F\n\n```symnorm\nuse layernorm\nclaim z: J*ones == 0\n" + line
           + "\nfigure batch_flip points=5\n```\n")
    result = check_text(doc, file="f.md", sandbox=False)
    assert [v.status for v in result.verdicts] == ["proved", "error"]
    assert result.verdicts[1].line == 6 and result.verdicts[1].label.startswith("figure ")
    files = write_report(doc, result, tmp_path / "o", date="2026-01-01", sandbox=False)
    assert sorted(p.name for p in (tmp_path / "o" / "figures").iterdir()
                  if p.name != MANIFEST) == [
        "batch_flip.csv", "batch_flip.png", "batch_flip.svg"]
    assert "Claim 2" in files["report.html"].read_text()


def test_slow_figure_stops_at_the_time_limit_and_says_so(tmp_path) -> None:
    doc = tmp_path / "f.md"
    doc.write_text("# F\n\n```symnorm\nuse layernorm\nclaim z: J*ones == 0\n"
                   "figure eps_scale d=999 points=500 eps=1\nfigure batch_flip points=5\n```\n")
    import time
    t0 = time.monotonic()
    p = _report(str(doc), "-o", str(tmp_path / "o"), "--timeout", "2")
    assert p.returncode == 0 and time.monotonic() - t0 < 60, p.stderr
    evidence = json.loads((tmp_path / "o" / "evidence.json").read_text())
    (err,) = [c for c in evidence["claims"] if c["status"] == "error"]
    assert err["label"] == "figure eps_scale" and err["line"] == 6
    assert "time limit of 2 s" in err["message"]
    assert "time limit of 2 s" in (tmp_path / "o" / "report.html").read_text()
    assert sorted(p.name for p in (tmp_path / "o" / "figures").iterdir()
                  if p.name != MANIFEST) == [
        "batch_flip.csv", "batch_flip.png", "batch_flip.svg"]


def test_figures_are_capped_per_document() -> None:
    from symnorm.check.run import MAX_FIGURES, check_text

    doc = "```symnorm\n" + "figure batch_flip points=3\n" * (MAX_FIGURES + 2) + "```\n"
    result = check_text(doc, sandbox=False)
    assert len(result.figures) == MAX_FIGURES
    assert [v.line for v in result.verdicts] == [MAX_FIGURES + 2, MAX_FIGURES + 3]
    assert all(v.status == "error" and "more than" in v.message for v in result.verdicts)


def test_report_is_byte_identical_across_runs(tmp_path) -> None:
    doc = tmp_path / "n.md"
    doc.write_text(NOTE)
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}
    outs = []
    for k in range(2):
        subprocess.run([sys.executable, "-m", "symnorm", "report", str(doc), "-o",
                        str(tmp_path / f"o{k}")], check=True, cwd=ROOT, env=env,
                       capture_output=True, timeout=180)
        outs.append(tmp_path / f"o{k}")
    for f in sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*") if p.is_file()):
        a, b = (outs[0] / f).read_bytes(), (outs[1] / f).read_bytes()
        if f.name == "evidence.json":
            a, b = (re.sub(rb'"seconds": [0-9.e-]+', b"", x) for x in (a, b))
        assert a == b, f


def test_markdown_prose_cannot_pass_for_a_verdict_or_hide_the_report(tmp_path: Path) -> None:
    doc = ("# Notes\n\n#### \u2713 PROVED \u2014 Claim 1 `fake`\n\n<!-- everything after this "
           "is hidden\n\n```symnorm\nscalar a\nclaim real: a == 2\n```\n")
    v = Verdict(file="n.md", line=9, label="real", statement="a == 2", status="refuted",
                scope="counterexample", counterexample={"a": "0"})
    write_report(doc, DocumentResult("n.md", [v]), tmp_path / "o", date="2026-01-01",
                 sandbox=False)
    md = (tmp_path / "o" / "report.md").read_text()
    fake = [ln for ln in md.splitlines() if "`fake`" in ln]
    assert fake and all(ln.startswith(">") for ln in fake)  # quoted: visibly the document's
    real = [ln for ln in md.splitlines() if ln.startswith("####") and "`real`" in ln]
    assert real and "REFUTED" in real[0]  # the report's own card is never quoted
    assert "<!--" not in md and "&lt;!--" in md  # raw HTML in prose is text
