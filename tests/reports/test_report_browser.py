"""The HTML report in a real headless browser: Debian's Chromium driven by Playwright.

At 1280 and at 390 px wide: no sideways scrolling, every question and chart laid out with a size,
every filter changes what is shown, the search finds a question by a German word, every question
shows its wording in three languages, there is no console error and the page prints. Screenshots of
both widths are saved as test artefacts under $FIVE35_ARTIFACTS (default: report-screenshots/ in
pytest's base temporary directory); the directory is printed. The browser is the system's
/usr/bin/chromium (installed by .ci/run), never a downloaded build, with a fresh profile and without
any network service.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from five35.reports import write_report
from five35.spec.words import embedded_words
from test_reports import fixture_data

PAGES = embedded_words().pages
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-extensions",
]
WIDTHS = (1280, 390)


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("FIVE35_ARTIFACTS")
    where = Path(given) if given else tmp_path_factory.getbasetemp() / "report-screenshots"
    where.mkdir(parents=True, exist_ok=True)
    print(f"\nreport screenshots: {where}")
    return where


@pytest.fixture(scope="module")
def browser() -> Iterator[tuple[Any, Path, dict[str, Any], Any]]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is not installed: apt-get install chromium (.ci/run does this)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: pip install '.[test]'")
    data = fixture_data()
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as profile:
        write_report(Path(out), data, PAGES)
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                headless=True,
                args=ARGS,
                viewport={"width": 1280, "height": 900},
            )
            try:
                yield context, Path(out) / "report.html", data, pw
            finally:
                context.close()


def _open(browser: tuple[Any, Path, dict[str, Any], Any], width: int) -> tuple[Any, list[str]]:
    context, page_file, _, _ = browser
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    messages: list[str] = []
    page.on(
        "console",
        lambda m: messages.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
    page.on("requestfailed", lambda r: messages.append(f"requestfailed: {r.url}"))
    page.goto(page_file.as_uri(), wait_until="load")
    return page, messages


def _visible(page: Any, selector: str) -> int:
    script = (
        f"Array.from(document.querySelectorAll('{selector}')).filter(e => e.offsetParent !== null).length"
    )
    return int(page.evaluate(script))


@pytest.mark.parametrize("width", WIDTHS)
def test_no_sideways_scrolling_and_screenshots(
    browser: tuple[Any, Path, dict[str, Any], Any], artefacts: Path, width: int
) -> None:
    page, messages = _open(browser, width)
    try:
        scroll = page.evaluate("document.scrollingElement.scrollWidth")
        client = page.evaluate("document.scrollingElement.clientWidth")
        wide = page.evaluate(
            "Array.from(document.querySelectorAll('main *')).filter(e => e.offsetParent !== null && "
            "e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length"
        )
        assert scroll <= client and wide == 0, (width, scroll, client, wide)
        page.screenshot(path=str(artefacts / f"report-{width}.png"))
        page.screenshot(path=str(artefacts / f"report-{width}-full.png"), full_page=True)
        page.locator("table.overview").scroll_into_view_if_needed()
        page.screenshot(path=str(artefacts / f"report-{width}-overview.png"))
        page.locator("#q-run_order").scroll_into_view_if_needed()
        page.screenshot(path=str(artefacts / f"report-{width}-question.png"))
        assert (artefacts / f"report-{width}.png").stat().st_size > 10_000
        assert not messages
    finally:
        page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_every_question_renders_with_its_wording_in_three_languages(
    browser: tuple[Any, Path, dict[str, Any], Any], width: int
) -> None:
    page, messages = _open(browser, width)
    _, _, data, _ = browser
    try:
        sections = page.locator("section.question")
        assert sections.count() == len(data["questions"])
        for i, q in enumerate(data["questions"]):
            section = sections.nth(i)
            assert section.get_attribute("data-question") == q["id"]
            box = section.bounding_box()
            assert box is not None and box["height"] > 100 and box["width"] > 300, q["id"]
            for lang in ("en", "de", "es"):
                wording = section.locator(f".wording p[lang={lang}]")
                assert wording.count() == 1, (q["id"], lang)
                assert wording.inner_text().strip().endswith(q["wording"][lang][-12:]), (q["id"], lang)
            assert section.locator("a[href='#questions-to-settle']").count() == 1
            assert section.locator("details.evidence").count() == 1
        # The measurements stand in a closed <details> below the wording: open them all, as
        # printing does.
        page.evaluate("document.querySelectorAll('details.more').forEach(d => d.open = true)")
        charts = page.locator("svg.chart")
        # A chart for every measured row where some game changed (none where nothing differs),
        # and the six of the rule versions.
        drawn = sum(
            1
            for q in data["questions"]
            for row in q["impacts"]
            if any(cell["share"] > 0 for cell in row["per_players"].values())
        )
        assert charts.count() == drawn + 6
        for i in range(charts.count()):
            box = charts.nth(i).bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 80, i
        assert not messages
    finally:
        page.close()


def test_every_filter_changes_what_is_shown(browser: tuple[Any, Path, dict[str, Any], Any]) -> None:
    page, messages = _open(browser, 1280)
    try:
        assert page.locator("#controls").is_visible()
        total = _visible(page, ".item")
        boxes = page.locator("#controls input[type=checkbox]")
        assert boxes.count() >= 6
        for i in range(boxes.count()):
            box = boxes.nth(i)
            name = f"{box.get_attribute('name')}={box.get_attribute('value')}"
            box.uncheck()
            fewer = _visible(page, ".item")
            assert fewer < total, name
            box.check()
            assert _visible(page, ".item") == total, name
        assert not messages
    finally:
        page.close()


def test_search_finds_a_question_by_a_german_word(browser: tuple[Any, Path, dict[str, Any], Any]) -> None:
    page, messages = _open(browser, 390)
    try:
        search = page.locator("#search")
        search.fill("Läufe")  # a German word: in the wording of the run questions, no text of the others
        rows = page.locator("table.overview tr.item")
        shown = [
            rows.nth(i).get_attribute("data-for") for i in range(rows.count()) if rows.nth(i).is_visible()
        ]
        assert shown and "q-run_gaps" in shown and "q-five_players" not in shown
        assert page.locator("#q-run_gaps").is_visible() and not page.locator("#q-five_players").is_visible()
        assert "Showing" in page.locator("#shown").inner_text()
        search.fill("")
        assert all(rows.nth(i).is_visible() for i in range(rows.count()))
        assert not messages
    finally:
        page.close()


def test_the_page_reads_without_scripts(browser: tuple[Any, Path, dict[str, Any], Any]) -> None:
    _, page_file, data, pw = browser
    with tempfile.TemporaryDirectory() as profile:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=ARGS, java_script_enabled=False
        )
        try:
            page = context.new_page()
            page.goto(page_file.as_uri(), wait_until="load")
            # no filters without the script, and everything else there to read
            assert not page.locator("#controls").is_visible()
            assert _visible(page, "section.question") == len(data["questions"])
            assert _visible(page, "table.overview tr.item") == len(data["questions"])
            assert _visible(page, ".wording p") >= 3 * len(data["questions"])
        finally:
            context.close()


def test_the_report_prints(browser: tuple[Any, Path, dict[str, Any], Any]) -> None:
    page, messages = _open(browser, 1280)
    try:
        page.emulate_media(media="print")
        assert not page.locator("nav.toc").is_visible()
        pdf = page.pdf(format="A4")
        assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
        page.emulate_media(media="screen")
        assert not messages
    finally:
        page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_discovered_questions_and_the_proved_properties_render(
    browser: tuple[Any, Path, dict[str, Any], Any], artefacts: Path, width: int
) -> None:
    """A report with a silence, an engine decision and a liveness finding (synthetic, as
    tests/reports/test_discovery_report.py builds them) and two proved properties: each discovered
    question laid out with its kind in plain words and its wording in three languages, the
    section "What holds beyond the simulated games" listed, no sideways scrolling; screenshots saved
    beside the others."""
    from test_discovery_report import data as discovery_data

    _, _, _, pw = browser
    data = discovery_data()
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as profile:
        write_report(Path(out), data, PAGES)
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=ARGS
        )
        try:
            page = context.new_page()
            page.set_viewport_size({"width": width, "height": 900})
            messages: list[str] = []
            page.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
            page.goto((Path(out) / "report.html").as_uri(), wait_until="load")
            scroll = page.evaluate("document.scrollingElement.scrollWidth")
            client = page.evaluate("document.scrollingElement.clientWidth")
            assert scroll <= client, (width, scroll, client)
            for q in (q for q in data["questions"] if q["topics"]):
                section = page.locator(f"section.question[data-question='{q['id']}']")
                assert section.count() == 1, q["id"]
                assert q["kind_words"] in section.locator("p.tags").inner_text(), q["id"]
                for lang in ("en", "de", "es"):
                    assert section.locator(f".wording p[lang={lang}]").count() == 1, (q["id"], lang)
                box = section.bounding_box()
                assert box is not None and box["width"] > 300, q["id"]
            proved = page.locator("#proved")
            assert proved.is_visible()
            shown = proved.inner_text()
            assert all(p["statement"] in shown for p in data["proved"] if p["shown"])
            page.locator("section.question[data-kind='engine_decision']").scroll_into_view_if_needed()
            page.screenshot(path=str(artefacts / f"report-{width}-discovered.png"))
            proved.screenshot(path=str(artefacts / f"report-{width}-proved.png"))
            assert not messages
        finally:
            context.close()
