"""The HTML game report: (a) its structure, without a browser; (b) in headless Chromium.

The browser test needs selenium (pip) and Debian's chromium + chromium-driver; it skips,
saying which is missing, where they are not installed, and fails instead when the
environment variable GCGTOOLS_REQUIRE_BROWSER is set (as CI sets it). docs/ci-chromium.md
says how CI installs them so that it always runs there.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import valid_file, valid_file_params
from support.browser import (  # noqa: F401
    CHROMIUM_FLAGS,
    SVG_NS,
    Collector,
    check_self_contained,
    chromium,
    find_browser,
    missing_browser,
    parse_html,
)
from support.reference_data import DATA, needs_data
from support.samples_annotator import GAME
from typer.testing import CliRunner

from gcgtools import parse_bytes, parse_string, read_game, replay
from gcgtools.cli import app
from gcgtools.jobs.report import game_report_html
from gcgtools.render.svg import tiles_svg
from gcgtools.rules.options import RuleOptions

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PNG = b"\x89PNG\r\n\x1a\n"


def _classes(attrs: dict[str, str | None]) -> list[str]:
    return (attrs.get("class") or "").split()


def test_report_structure() -> None:
    game = parse_string(GAME)
    html = game_report_html(game)
    assert html.startswith("<!DOCTYPE html>")
    doc = check_self_contained(html)
    rows = [a for t, a in doc.tags if t == "tr" and "move" in _classes(a)]
    assert len(rows) == len(game.events) == 5
    assert [r["data-position"] for r in rows] == ["1", "2", "3", "4", "5"]
    for text in ("8G HEX", "I7 O(X)IDES", "12C MATURe(S)", "exchange UV", "13B FEW"):
        assert text in html
    assert "nice fishing\nsecond line of the note" in html
    assert "a comment, not a note" in html
    assert 'data-code="O312"' in html  # the findings of a move are in the move list
    # one board, the controls, the chart
    assert sum(1 for t, a in doc.tags if a.get("id") == "board") == 1
    for control in ("first", "prev", "slider", "next", "last", "chart-marker"):
        assert any(a.get("id") == control for _, a in doc.tags), control
    assert sum(1 for t, a in doc.tags if t == "polyline" and "score-line" in _classes(a)) == 2
    assert "Ann 73 - Bob 16" in html
    payload = html.split('<script type="application/json" id="positions">', 1)[1]
    document = json.loads(payload.split("</script>", 1)[0])
    marks, positions = document["marks"], document["positions"]
    assert len(positions) == 6  # the start and one per event
    assert positions[0]["tiles"] == [] and len(positions[1]["tiles"]) == 3
    assert positions[-1]["scores"] == [73, 16]
    # each tile's drawing is stored once: the final board's tiles are its last marks
    assert len(marks) == len(set(marks))
    assert all(mark.count('class="tile') == 1 for mark in marks)
    final = "".join(marks[i] for i in positions[-1]["tiles"])
    game = parse_string(GAME)
    last = list(replay(game))[-1]
    assert final == tiles_svg(last.board, tiles=last.board.tileset).removeprefix(
        '<g class="tiles">'
    ).removesuffix("</g>")


def test_report_study_view_per_position() -> None:
    html = game_report_html(parse_string(GAME))
    payload = html.split('<script type="application/json" id="positions">', 1)[1]
    positions = json.loads(payload.split("</script>", 1)[0])["positions"]
    start, after_hex, last = positions[0], positions[1], positions[-1]
    assert start["tomove"] == "Ann to move · rack AEHMRTX"
    assert start["rack"][:2] == [["A", 1], ["E", 1]] and start["rack"][-1] == ["X", 8]
    assert after_hex["tomove"] == "Bob to move · rack ADEIORS"
    assert after_hex["unseen"] == (
        "unseen 90 (Bob's view) · bag 83 · vowels 37, consonants 51, blanks 2"
    )
    assert after_hex["tracking"].startswith("A×8 B×2 C×2 D×3 E×10 F×2")
    # after the last event Bob is to move and his rack is not in the record
    assert last["tomove"] == "Bob to move · rack not recorded"
    assert last["caption"] == "5. Ann: 13B FEW +31"
    assert positions[2]["caption"] == "2. Bob: I7 O(X)IDES +16"
    # the page opens on the last position, with its study view
    assert '<p id="tomove" style="color:#c0392b">Bob to move · rack not recorded</p>' in html


def test_report_size_grows_with_tiles_not_with_moves_times_tiles() -> None:
    # a tile is drawn once as the last play and once after it, whatever the number of moves
    game = read_game(EXAMPLES / "club-final.gcg")
    html = game_report_html(game)
    payload = html.split('<script type="application/json" id="positions">', 1)[1]
    marks = json.loads(payload.split("</script>", 1)[0])["marks"]
    put_down = sum(len(pos.placed) for pos in replay(game))  # withdrawn plays included
    assert len(marks) <= 2 * put_down
    assert len(html) < 300_000  # was over 1 MB with every position's tiles drawn in full


def test_report_escapes_text() -> None:
    text = GAME.replace("#note nice fishing", "#note <script>alert(1)</script> & more")
    html = game_report_html(parse_string(text))
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in html


def test_report_header_names_the_board_in_words(tmp_path: Path) -> None:
    header = game_report_html(parse_string(GAME)).split("</header>", 1)[0]
    assert "tiles english, board standard 15x15;" in header
    assert "CrosswordGame" not in header
    superboard = game_report_html(parse_string(GAME), options=RuleOptions.parse(board="super"))
    assert "board super 21x21;" in superboard.split("</header>", 1)[0]
    # a board file: by its file's name
    layout = tmp_path / "club.txt"
    layout.write_text("\n".join("." * 15 for _ in range(15)) + "\n")
    club = game_report_html(parse_string(GAME), options=RuleOptions.parse(board=str(layout)))
    assert "board club 15x15;" in club.split("</header>", 1)[0]


def test_cli_report(tmp_path: Path) -> None:
    src = tmp_path / "game.gcg"
    src.write_text(GAME)
    out = tmp_path / "game.html"
    result = CliRunner().invoke(app, ["report", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == game_report_html(parse_string(GAME, str(src)))
    # it says what it wrote, on standard error; standard output stays empty
    assert result.stderr == f"wrote {out} (1 game)\n" and result.stdout == ""
    # to standard output: the page, and nothing more
    result = CliRunner().invoke(app, ["report", str(src)])
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("relative", valid_file_params())
def test_corpus_reports(relative: str | None) -> None:
    path = valid_file(relative)
    game = parse_bytes(path.read_bytes(), str(path))
    html = game_report_html(game)
    doc = parse_html(html)
    rows = [a for t, a in doc.tags if t == "tr" and "move" in _classes(a)]
    assert len(rows) == len(game.events)
    for _tag, attrs in doc.tags:
        for name in ("src", "href"):
            assert not (attrs.get(name) or "").lower().startswith(("http:", "https:", "//"))


# ------------------------------------------------------------------------- browser


def test_report_in_headless_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "report.html"
    page.write_text(game_report_html(parse_string(GAME)), encoding="utf-8")
    driver = chromium(tmp_path, monkeypatch)
    from selenium.webdriver.common.by import By

    try:
        driver.get(page.as_uri())

        def position() -> str:
            return str(driver.find_element(By.TAG_NAME, "body").get_attribute("data-position"))

        def tiles() -> int:
            return len(driver.find_elements(By.CSS_SELECTOR, "#board g.tiles g.tile"))

        assert position() == "5" and tiles() == 17  # opens on the final position
        driver.find_element(By.ID, "first").click()
        assert position() == "0" and tiles() == 0
        # the study view follows: who is to move, their rack, the unseen tiles per letter
        assert driver.find_element(By.ID, "tomove").text == "Ann to move · rack AEHMRTX"
        assert driver.find_element(By.ID, "unseen").text.startswith("unseen 93 (Ann's view)")
        assert driver.find_element(By.ID, "tracking").text.startswith("A×8 B×2 C×2 D×4 E×11")
        empty = driver.find_element(By.CSS_SELECTOR, "#board g.tiles").get_attribute("innerHTML")
        driver.find_element(By.ID, "next").click()
        assert position() == "1" and tiles() == 3
        board = driver.find_element(By.CSS_SELECTOR, "#board g.tiles").get_attribute("innerHTML")
        assert board != empty
        squares = {
            t.get_attribute("data-square")
            for t in driver.find_elements(By.CSS_SELECTOR, "#board g.tile")
        }
        assert squares == {"8G", "8H", "8I"}
        assert driver.find_element(By.ID, "caption").text == "1. Ann: 8G HEX +26"
        assert driver.find_element(By.ID, "tomove").text == "Bob to move · rack ADEIORS"
        rack = driver.find_elements(By.CSS_SELECTOR, "#rack span")
        assert [t.text.split("\n")[0] for t in rack] == list("ADEIORS")
        driver.find_element(By.ID, "next").click()  # Ann to move with AEMRTU?: a blank
        blanks = driver.find_elements(By.CSS_SELECTOR, "#rack span.blank")
        assert [b.text for b in blanks] == ["?"]
        driver.find_element(By.ID, "prev").click()
        driver.find_element(By.ID, "next").click()
        assert position() == "2" and tiles() == 8
        driver.find_element(By.ID, "prev").click()
        assert position() == "1"
        # clicking a move in the list jumps there
        rows = driver.find_elements(By.CSS_SELECTOR, "tr.move")
        rows[2].click()
        assert position() == "3" and "current" in (rows[2].get_attribute("class") or "")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#board g.tile.blank")) == 1
        # the page loaded nothing from anywhere
        resources = driver.execute_script("return performance.getEntriesByType('resource')")
        assert resources == []
        shot = tmp_path / "report.png"
        assert driver.save_screenshot(str(shot))
        assert shot.read_bytes().startswith(PNG)
        errors = [
            entry
            for entry in driver.get_log("browser")
            if entry.get("level") in ("SEVERE", "ERROR")
        ]
        assert errors == []
    finally:
        driver.quit()
    assert os.path.getsize(shot) > 10_000


def test_home_and_end_step_through_the_game_without_scrolling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "report.html"
    page.write_text(game_report_html(read_game(EXAMPLES / "club-final.gcg")), encoding="utf-8")
    driver = chromium(tmp_path, monkeypatch)
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    try:
        driver.set_window_size(1000, 500)  # the page is taller than the window
        driver.get(page.as_uri())
        driver.execute_script("window.scrollTo(0, 300)")
        scrolled = driver.execute_script("return window.scrollY")
        assert scrolled > 0
        last = driver.execute_script("return document.body.getAttribute('data-position')")
        for key, position in ((Keys.HOME, "0"), (Keys.ARROW_RIGHT, "1"), (Keys.END, last)):
            ActionChains(driver).send_keys(key).perform()
            assert driver.execute_script("return document.body.dataset.position") == position
            assert driver.execute_script("return window.scrollY") == scrolled
    finally:
        driver.quit()


def _overflow(driver: Any, selector: str) -> int:
    """How many pixels the page (or the element) is wider than it shows."""
    return int(
        driver.execute_script(
            "var e = arguments[0] ? document.querySelector(arguments[0]) "
            ": document.documentElement; return e.scrollWidth - e.clientWidth;",
            selector,
        )
    )


def test_report_title_fits_a_phone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    long = "#title Lorem_ipsum_dolor_sit_amet_consectetur_adipiscing_elit_sed_do_eiusmod\n"
    page = tmp_path / "report.html"
    page.write_text(game_report_html(parse_string(long + GAME)), encoding="utf-8")
    driver = chromium(tmp_path, monkeypatch)
    try:
        driver.set_window_size(390, 844)
        driver.get(page.as_uri())
        width = driver.execute_script("return window.innerWidth")
        assert width <= 390
        assert _overflow(driver, "header h1") == 0 and _overflow(driver, "header") == 0
        assert _overflow(driver, "") == 0  # nothing wider than the phone: no sideways scroll
    finally:
        driver.quit()


def _page_fits(driver: Any) -> bool:
    """The page is no wider than the window: nothing scrolls sideways but in its own box."""
    return bool(
        driver.execute_script("return document.scrollingElement.scrollWidth <= window.innerWidth")
    )


def test_report_and_site_fit_a_phone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "report.html"
    page.write_text(game_report_html(read_game(EXAMPLES / "club-final.gcg")), encoding="utf-8")
    site = tmp_path / "site"
    records = sorted(str(p) for p in EXAMPLES.glob("*.gcg"))
    result = CliRunner().invoke(app, ["report", *records, "-o", f"{site}/", "-q", "-j", "1"])
    assert result.exit_code == 0, result.output
    driver = chromium(tmp_path, monkeypatch)
    try:
        driver.set_window_size(390, 844)
        driver.get(page.as_uri())
        assert _page_fits(driver)
        # each move is two lines there: the move list needs no sideways scrolling either
        assert _overflow(driver, ".moves-pane") == 0
        driver.set_window_size(1280, 1000)
        driver.get(page.as_uri())
        assert _page_fits(driver)
        driver.set_window_size(390, 844)
        driver.get((site / "index.html").as_uri())
        assert _page_fits(driver)
        # the table scrolls in its own box
        assert _overflow(driver, ".games-box") > 0
        driver.set_window_size(1280, 1000)
        driver.get((site / "index.html").as_uri())
        assert _page_fits(driver) and _overflow(driver, ".games-box") == 0
    finally:
        driver.quit()


@needs_data
def test_site_index_with_analysis_fits_1400_pixels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert DATA is not None
    lexicon = str(DATA / "lexica" / "ENABLE.kwg")
    site = tmp_path / "site"
    records = sorted(str(p) for p in EXAMPLES.glob("*.gcg"))
    result = CliRunner().invoke(
        app, ["report", *records, "--lexicon", lexicon, "-o", f"{site}/", "-q", "-j", "1"]
    )
    assert result.exit_code == 0, result.output
    index = (site / "index.html").read_text()
    assert "Analysis with ENABLE, built-in leaves." in index
    for head in ("avg equity lost", "phonies", "missed bingos"):
        assert f">{head}</th>" in index
    driver = chromium(tmp_path, monkeypatch)
    try:
        driver.set_window_size(1400, 1000)
        driver.get((site / "index.html").as_uri())
        assert _overflow(driver, "") == 0
        # and a phone: the table scrolls in its box, the page does not
        driver.set_window_size(390, 844)
        driver.get((site / "index.html").as_uri())
        assert _page_fits(driver)
        driver.get((site / "games" / "club-final.html").as_uri())
        assert _page_fits(driver) and _overflow(driver, ".moves-pane") == 0
    finally:
        driver.quit()


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="file names must be bytes")
def test_site_of_files_whose_names_are_not_utf8(tmp_path: Path) -> None:
    import re
    from urllib.parse import unquote

    folder = tmp_path / "games"
    folder.mkdir()
    for name in (b"\xff.gcg", b"caf\xe9.gcg", b"50% #1.gcg", b"plain.gcg"):
        with open(os.path.join(os.fsencode(folder), name), "w", encoding="utf-8") as fh:
            fh.write(GAME)
    site = tmp_path / "site"
    result = CliRunner().invoke(app, ["report", str(folder), "-o", str(site)])
    assert result.exit_code == 0, result.output
    index = (site / "index.html").read_bytes().decode("utf-8")  # strictly UTF-8
    links = re.findall(r'href="(games/[^"]+)"', index)
    assert len(links) == 4
    for link in links:  # every link opens its page
        assert (site / unquote(link)).is_file(), link
    names = sorted(os.listdir(site / "games"))
    assert names == sorted(["%FF.html", "caf%E9.html", "50% #1.html", "plain.html"])
