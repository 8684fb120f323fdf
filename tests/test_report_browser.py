"""The HTML report as a person sees it: rendered by headless Chromium, measured, screenshotted.

A copy of ``report.html`` gets a probe script (the report itself has none and forbids
scripts by CSP) that records the laid-out boxes of every ``<math>``, ``<mfrac>`` and badge
and the page's visible text; Chromium's ``--dump-dom`` hands them back.  The screenshot is
saved as ``test-artifacts/report.png``.  Without Chromium the test skips locally and fails
under ``CI=true``.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from symnorm.check.verdict import STATUSES, DocumentResult, Verdict
from symnorm.lang.syntax import Figure, Pos
from symnorm.report.build import write_report
from symnorm.report.model import STATUS_INFO

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

DOC = """# Rendered report

Inline math $\\mathcal N_\\epsilon(x) = \\frac{c}{\\sqrt{v + \\epsilon}}$ in prose, and a display:

$$
J = \\frac{P}{s} - \\frac{c c^\\top}{d s^3}
$$

```symnorm
use layernorm
claim c0: x == x
claim c1: x == x
claim c2: x == x
claim c3: x == x
claim c4: x == x
claim c5: x == x
figure batch_flip points=41
```
"""

PROBE = """<script>
window.addEventListener("load", () => {
  const box = e => { const b = e.getBoundingClientRect();
                     return [b.left, b.top, b.width, b.height]; };
  const out = {
    maths: [...document.querySelectorAll("math")].map(box),
    fracs: [...document.querySelectorAll("mfrac")].map(
      f => [box(f.children[0]), box(f.children[1])]),
    badges: [...document.querySelectorAll("article .badge")].map(
      b => [b.innerText, box(b), getComputedStyle(b).backgroundColor]),
    images: [...document.querySelectorAll("figure img")].map(
      i => [i.naturalWidth, i.naturalHeight, i.complete]),
    // every display: its overflow, scroll and client heights, and its box against the
    // box of the math inside (a wrapper taller than its content shows a stray scrollbar)
    blocks: [...document.querySelectorAll('math[display="block"], .math-block')].map(e => {
      const inner = e.tagName.toLowerCase() == "math" ? e : e.querySelector("math");
      return [e.tagName, getComputedStyle(e).overflowY, e.scrollHeight, e.clientHeight,
              box(e)[3], inner ? box(inner)[3] : 0]; }),
    evidence: [...document.querySelectorAll("details.evidence")].map(d => ({
      open: d.open, summary: d.querySelector("summary").textContent,
      head: [...d.querySelectorAll("th")].map(h => h.textContent),
      rows: [...d.querySelectorAll("tr")].slice(1).map(
        r => [...r.children].map(c => c.textContent)) })),
    height: document.documentElement.scrollHeight,
    // every text the report typesets or writes, collapsed parts included; the document's
    // own code (claim sources, code spans) is the author's and may read like code
    all: (() => { const c = document.body.cloneNode(true);
                  c.querySelectorAll("pre, code, script").forEach(e => e.remove());
                  return c.textContent; })(),
    text: document.body.innerText };
  const pre = document.createElement("pre");
  pre.id = "probe"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("headless Chromium is required under CI=true (apt-get install chromium)")
    pytest.skip("chromium not installed (apt-get install -y chromium)")


def _run(browser: str, profile: Path, *args: str) -> str:
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", f"--user-data-dir={profile}", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


#: A long step, as the any-d engine writes one (it must wrap, not overflow).
LONG = " + ".join([(r"\frac{\langle x, \mathbf{1}\rangle^{2}}{d \sqrt{\epsilon + \frac{"
                   r"\langle x, x\rangle}{d}}}\,x")] * 8)


def _evidence(k: int) -> list[dict]:
    """Three distinct points, the first sampled four times, and one singular point."""
    def row(eps: str, x: list[str], result: str = "agree") -> dict:
        return {"d": 3, "point": {"d": "3", "eps": eps, "x": x}, "dps": 50, "second_dps": 70,
                "lhs": "[['0.25'], ['-1.5'], ['2.0']]", "rhs": "[['0.25'], ['-1.5'], ['2.0']]",
                "digits": 50.0, "result": result}
    return [row("1/10", ["1", "2", "4"])] * 4 + [row("1/100", ["1", "2", str(5 + k)]),
                                                 row("3", ["0", "1", "1"]),
                                                 {**row("0", ["1", "1", "1"], "singular"),
                                                  "reason": "division by zero"}]


def _verdicts() -> list[Verdict]:
    out = []
    for k, status in enumerate(STATUSES):
        out.append(Verdict(
            "r.md", 12 + k, f"c{k}", "J*c == eps/s**3*c", status, scope="every d >= 2",
            engine="any-d", latex=r"J c = \frac{\epsilon}{s^{3}} c",
            steps=[{"text": "Write the left side in the basis {1, x}:", "latex": LONG,
                    "side": "left"},
                   {"text": "Subtract:", "latex": r"\frac{\epsilon}{s^3} - \frac{\epsilon}{s^3} = 0"}],
            evidence=_evidence(k),
            counterexample={"eps": "1/10"} if status == "refuted" else None))
    return out


def _render(page: Path, tmp: Path, shot_name: str) -> tuple[dict, Path]:
    """Probe ``page`` in Chromium and screenshot it to ``test-artifacts/shot_name``."""
    browser = _chromium()
    probe = tmp / "probe.html"
    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "",
                  page.read_text(encoding="utf-8"))
    probe.write_text(text.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = _run(browser, tmp / "profile", "--virtual-time-budget=10000", "--dump-dom",
               probe.as_uri())
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.DOTALL)
    assert found, "the probe did not run: " + dom[:500]
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / shot_name
    shot.unlink(missing_ok=True)
    _run(browser, tmp / "profile", "--window-size=1200,4200", f"--screenshot={shot}",
         page.as_uri())
    return json.loads(html.unescape(found.group(1))), shot


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path, Path]:
    _chromium()
    tmp = tmp_path_factory.mktemp("browser")
    figure = Figure("batch_flip", (("points", "41"),), Pos(17, 1))
    files = write_report(DOC, DocumentResult("r.md", _verdicts(), [figure]), tmp / "out",
                         date="2026-01-01")
    probe, shot = _render(files["report.html"], tmp, "report.png")
    return probe, shot, files["report.html"]


def test_math_is_typeset_not_raw(rendered: tuple[dict, Path, Path]) -> None:
    probe, _, _ = rendered
    # prose (2) + 6 statements + 6 steps
    assert len(probe["maths"]) >= 14
    assert all(w > 0 and h > 0 for _, _, w, h in probe["maths"])
    assert probe["fracs"], "no fractions were laid out"
    for (_, num_top, _, num_h), (_, den_top, _, _) in probe["fracs"]:
        assert num_top + num_h <= den_top + 1.5, "numerator not above the denominator"
    for raw in ("\\frac", "\\sqrt", "\\epsilon", "$$", "\\top"):
        assert raw not in probe["text"], raw


#: Plain-text maths as SymPy or the engines print it; none of it may reach the page.
RAW_SYMPY = re.compile(r"[\w)]\*\*[\w(]|sqrt\(|<ones|ones\*|\.T\b|<x,|\[\['")


def _no_math_scrolls(probe: dict) -> None:
    """No display shows a vertical scrollbar, and no wrapper is much taller than its math."""
    assert probe["blocks"], "no display math was laid out"
    for tag, overflow_y, scroll_h, client_h, height, inner in probe["blocks"]:
        if overflow_y in ("auto", "scroll"):
            assert scroll_h <= client_h, (tag, overflow_y, scroll_h, client_h)
        if tag.lower() == "div" and inner:
            assert inner - 1 <= height <= inner + 16, (height, inner)


def _one_row_per_point(probe: dict) -> None:
    assert probe["evidence"], "no evidence table"
    for table in probe["evidence"]:
        assert not table["open"], "evidence is collapsed by default"
        assert table["head"] == ["d", "point", "left side", "right side", "digits", "result"]
        points = [(r[0], r[1]) for r in table["rows"]]
        assert len(points) == len(set(points)), "duplicate rows"
        assert all(r[5] for r in table["rows"]), "a row without a result"


def test_evidence_is_one_row_per_point_with_a_result(rendered: tuple[dict, Path, Path]) -> None:
    probe, _, _ = rendered
    _one_row_per_point(probe)
    for table in probe["evidence"]:
        assert len(table["rows"]) == 4  # 3 distinct points + 1 singular, from 7 samples
        assert [r[5] for r in table["rows"]] == ["agrees (4 samples)", "agrees", "agrees",
                                                 "skipped: singular"]
        assert table["summary"].startswith("Numeric evidence: 3 points at d = 3 agree to 50 "
                                           "digits; 1 point skipped")


def test_no_raw_sympy_text_and_no_scrollbar_on_math(rendered: tuple[dict, Path, Path]) -> None:
    probe, _, _ = rendered
    assert not RAW_SYMPY.search(probe["all"]), RAW_SYMPY.search(probe["all"])
    _no_math_scrolls(probe)
    # the long step wraps onto lines instead of overflowing its card
    assert all(w <= 1200 for _, _, w, _ in probe["maths"])


def test_every_claim_shows_a_badge_with_text_and_colour(
        rendered: tuple[dict, Path, Path]) -> None:
    probe, _, _ = rendered
    badges = probe["badges"]
    assert [b[0].split(" ", 1)[1] for b in badges] == [STATUS_INFO[s].word for s in STATUSES]
    assert all(w > 20 and h > 10 for _, (_, _, w, h), _ in badges)
    assert len({color for _, _, color in badges}) == len(STATUSES)


def test_figure_image_loads_from_the_page_itself(rendered: tuple[dict, Path, Path]) -> None:
    probe, _, _ = rendered
    assert probe["images"] and all(w > 100 and h > 100 and ok for w, h, ok in probe["images"])


def test_screenshot_shows_the_badges(rendered: tuple[dict, Path, Path]) -> None:
    import matplotlib.image

    _, shot, _ = rendered
    assert shot.is_file() and shot.stat().st_size > 20_000
    pixels = (matplotlib.image.imread(str(shot))[..., :3] * 255).round().astype(int)
    assert pixels.std() > 10  # not a blank page
    for status in STATUSES:
        rgb = np.array([int(STATUS_INFO[status].color[k:k + 2], 16) for k in (1, 3, 5)])
        hits = (np.abs(pixels - rgb).max(axis=-1) <= 2).sum()
        assert hits > 200, f"badge colour of {status} not visible in the screenshot"


@pytest.mark.slow
def test_the_paper_report_as_rendered(tmp_path: Path) -> None:
    from symnorm.report.build import PAPER, report_document

    _chromium()
    files, result = report_document(PAPER, tmp_path / "out")
    probe, shot = _render(files["report.html"], tmp_path, "paper-report.png")
    words = [b[0].split(" ", 1)[1] for b in probe["badges"]]
    assert words == [STATUS_INFO[v.status].word for v in result.verdicts]
    assert len(probe["maths"]) >= len(result.verdicts)
    assert all(w > 0 and h > 0 for _, _, w, h in probe["maths"])
    for raw in ("\\frac", "\\sqrt", "\\mathcal", "$$"):
        assert raw not in probe["text"], raw
    assert len(probe["images"]) >= 2 and shot.stat().st_size > 20_000
    assert not RAW_SYMPY.search(probe["all"]), RAW_SYMPY.search(probe["all"])
    _no_math_scrolls(probe)
    _one_row_per_point(probe)
    assert probe["height"] < 27_000  # 28,194 px before the evidence was collapsed
