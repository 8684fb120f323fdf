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


def _verdicts() -> list[Verdict]:
    out = []
    for k, status in enumerate(STATUSES):
        out.append(Verdict(
            "r.md", 12 + k, f"c{k}", "J*c == eps/s**3*c", status, scope="every d >= 2",
            latex=r"J c = \frac{\epsilon}{s^{3}} c",
            steps=[{"text": "reduce", "latex": r"\frac{\epsilon}{s^3} - \frac{\epsilon}{s^3} = 0"}],
            evidence=[{"d": 3, "point": {"eps": "1/10"}, "dps": 50, "lhs": "0.25",
                       "rhs": "0.25", "digits": 50}],
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
