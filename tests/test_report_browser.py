"""The HTML report in a real headless browser: Debian's Chromium driven by Playwright.

Every finding section and every chart must render (be laid out with a size), there must be no
console error and no page error, and the page must print. The browser is the system's
/usr/bin/chromium (installed by .ci/run), never a downloaded build; it runs with a fresh profile
and without any network service.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from five35.reports import write_report
from test_reports import fixture_data

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


@pytest.fixture(scope="module")
def page_and_messages() -> Iterator[tuple[Any, list[str], dict[str, Any]]]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is not installed: apt-get install chromium (.ci/run does this)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: pip install '.[test]'")
    data = fixture_data()
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as profile:
        write_report(Path(out), data)
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                headless=True,
                args=ARGS,
                viewport={"width": 1200, "height": 900},
            )
            try:
                page = context.new_page()
                messages: list[str] = []
                page.on(
                    "console",
                    lambda m: (
                        messages.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None
                    ),
                )
                page.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
                page.on("requestfailed", lambda r: messages.append(f"requestfailed: {r.url}"))
                page.goto((Path(out) / "report.html").as_uri(), wait_until="load")
                yield page, messages, data
            finally:
                context.close()


def test_every_finding_section_renders(page_and_messages: tuple[Any, list[str], dict[str, Any]]) -> None:
    page, messages, data = page_and_messages
    sections = page.locator("section.finding")
    assert sections.count() == len(data["findings"])
    for i, finding in enumerate(data["findings"]):
        section = sections.nth(i)
        assert section.get_attribute("data-finding") == finding["id"]
        box = section.bounding_box()
        assert box is not None and box["height"] > 100 and box["width"] > 300, finding["id"]
        headings = section.locator("h4").all_inner_texts()
        assert headings == [
            "The text",
            "The readings",
            "At the table",
            "How often it matters",
            "Outside evidence",
            "Proposed wording",
        ], finding["id"]
        assert section.locator("blockquote.proposal").inner_text().strip()
    assert not messages


def test_witness_cards_are_drawn(page_and_messages: tuple[Any, list[str], dict[str, Any]]) -> None:
    page, _, _ = page_and_messages
    section = page.locator('section[data-finding="vp.run_order"]')
    cards = section.locator(".table-situation .card")
    assert cards.count() >= 10
    box = cards.first.bounding_box()
    assert box is not None and box["width"] > 8 and box["height"] > 8
    assert section.locator(".seat.mover .badge.turn").inner_text() == "to move"
    assert section.locator(".outcome").count() == 2


def test_every_chart_renders(page_and_messages: tuple[Any, list[str], dict[str, Any]]) -> None:
    page, messages, data = page_and_messages
    charts = page.locator("svg.chart")
    measured = sum(1 for s in data["findings"] if s["impact"])
    assert charts.count() == measured + 8
    for i in range(charts.count()):
        chart = charts.nth(i)
        box = chart.bounding_box()
        name = chart.get_attribute("data-chart")
        assert box is not None and box["width"] > 100 and box["height"] > 100, name
        assert chart.locator("title").count() >= 1
    bars = page.locator('svg[data-chart="variant-round_moves"] rect')
    assert bars.count() >= 15  # three profiles at five player counts, plus the legend
    assert not messages


def test_the_report_prints(page_and_messages: tuple[Any, list[str], dict[str, Any]]) -> None:
    page, messages, _ = page_and_messages
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    page.emulate_media(media="screen")
    assert not messages
