"""The judged report (``report --depth sim``) and a site of judged games, as a player
reads them: every text of a record escaped (bytes checked), the win% chart with its
legend, event numbers and mistake markers, and the judged candidates that show on the
board when clicked (in headless Chromium, see tests/render/test_html.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.browser import chromium, parse_html
from support.reference_data import DATA, needs_data
from support.samples_annotator import GAME
from typer.testing import CliRunner

from gcgtools.cli import app

pytestmark = needs_data

#: nicks and a note holding a terminal escape, markup, an ampersand, quotes and a
#: right-to-left override
NICK_A = 'A\x1b[31m<script>&"\u202e'
NICK_B = "B'\x1b]0;x\x07</td>\x9b"
NOTE = '\x1b[2J<script>alert(1)</script> & "q" <!-- \u202e'
NASTY = (
    GAME.replace("Ann Ann Smith", f"{NICK_A} Ann <b>Smith</b>")
    .replace("Bob Bob Jones", f"{NICK_B} Bob &amp; Jones")
    .replace(">Ann:", f">{NICK_A}:")
    .replace(">Bob:", f">{NICK_B}:")
    .replace("#note nice fishing", f"#note {NOTE}")
)
SIM = ("--depth", "sim", "--sim-iterations", "6", "--sim-candidates", "3", "-j", "1", "-q")

#: raw bytes no page may hold: C0 controls but tab, newline and CR, and DEL
RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: characters no page may hold raw: C1 controls, the bidirectional controls
RAW_CHARACTER = re.compile("[\x80-\x9f\u202a-\u202e\u2066-\u2069]")


def _lexicon() -> str:
    assert DATA is not None
    return str(DATA / "lexica" / "ENABLE.kwg")


def _run(*args: str) -> None:
    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1), result.output


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The judged report of the nasty record, and a site of it and a copy."""
    folder = tmp_path_factory.mktemp("judged")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GCGTOOLS_CACHE_DIR", str(folder / "cache"))
        record = folder / "nasty.gcg"
        record.write_text(NASTY, encoding="utf-8")
        copy = folder / "copy.gcg"
        copy.write_text(NASTY, encoding="utf-8")
        report = folder / "nasty.html"
        _run("report", str(record), "--lexicon", _lexicon(), *SIM, "-o", str(report))
        site = folder / "site"
        _run("report", str(record), str(copy), "--lexicon", _lexicon(), *SIM, "-o", f"{site}/")
        yield {
            "report": report,
            "index": site / "index.html",
            "game": site / "games" / "nasty.html",
        }


@pytest.mark.parametrize("name", ["report", "index", "game"])
def test_record_text_is_escaped_in_the_judged_report_and_the_site(
    pages: dict[str, Path], name: str
) -> None:
    data = pages[name].read_bytes()
    assert RAW_CONTROL.findall(data) == []
    text = data.decode("utf-8")
    assert RAW_CHARACTER.findall(text) == []
    # the only elements are the page's own: no <script>, <b> or </td> from the record
    doc = parse_html(text)
    assert [t for t, _ in doc.tags if t == "script"] == ["script"] * (2 if name != "index" else 1)
    assert not any(t == "b" for t, _ in doc.tags)
    assert b"<script>alert" not in data
    # the nicks are there, written out: the ESC as \x1b, the override as \u202e
    shown_a = "A\\x1b[31m&lt;script&gt;&amp;&quot;\\u202e"
    assert shown_a in text
    assert "B&#x27;\\x1b]0;x\\x07&lt;/td&gt;\\x9b" in text
    if name != "index":
        assert "\\x1b[2J&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &lt;!--" in text


@pytest.mark.parametrize("name", ["report", "game"])
def test_judged_parts_of_the_page_hold_the_written_out_nicks(
    pages: dict[str, Path], name: str
) -> None:
    text = pages[name].read_text(encoding="utf-8")
    chart = text.split('<svg class="win-chart"', 1)[1].split("</svg>", 1)[0]
    mistakes = text.split('<table class="mistakes">', 1)[1].split("</table>", 1)[0]
    for part in (chart, mistakes):
        assert "A\\x1b[31m&lt;script&gt;&amp;&quot;\\u202e" in part
        assert "B&#x27;\\x1b]0;x\\x07&lt;/td&gt;\\x9b" in part
    # the positions' JSON: the page shows its strings as text, written out like the rest
    payload = text.split('<script type="application/json" id="positions">', 1)[1]
    payload = payload.split("</script>", 1)[0]
    assert "<" not in payload and "&" not in payload
    positions = json.loads(payload)["positions"]
    assert positions[0]["tomove"].startswith('A\\x1b[31m<script>&"\\u202e to move')
    assert positions[2]["caption"].startswith("2. B'\\x1b]0;x\\x07</td>\\x9b: ")


# ------------------------------------------------------------------------- browser


def test_judged_report_fits_a_phone(
    pages: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = chromium(tmp_path, monkeypatch)
    try:
        for width in (390, 1280):
            driver.set_window_size(width, 900)
            for name in ("report", "index"):
                driver.get(pages[name].as_uri())
                fits = "return document.scrollingElement.scrollWidth <= window.innerWidth"
                assert driver.execute_script(fits), (name, width)
    finally:
        driver.quit()


def _win_chart(text: str) -> str:
    return text.split('<svg class="win-chart"', 1)[1].split("</svg>", 1)[0]


def test_win_chart_has_a_legend_event_numbers_and_the_mistakes(pages: dict[str, Path]) -> None:
    text = pages["report"].read_text(encoding="utf-8")
    chart = _win_chart(text)
    # the legend: whose line is whose, each in the player's colour, the names escaped
    legend = re.findall(r'<text class="legend" data-player="(\d)"[^>]*>([^<]*)</text>', chart)
    assert legend == [
        ("1", "A\\x1b[31m&lt;script&gt;&amp;&quot;\\u202e win%"),
        ("2", "B&#x27;\\x1b]0;x\\x07&lt;/td&gt;\\x9b win%"),
    ]
    assert len(re.findall(r'<polyline class="win-line" data-player="[12]"', chart)) == 2
    # the x axis: the event numbers of the game (5 events, all judged)
    ticks = re.findall(r'<text class="tick"[^>]*>(\d+)</text>', chart)
    assert ticks == ["0", "1", "2", "3", "4", "5"]
    # one marker per graded mistake, by grade, as the move list's badges say
    graded = 0
    for grade in ("small", "medium", "large"):
        badges = text.count(f'class="badge {grade}"')
        assert chart.count(f'<g class="mistake {grade}"') == badges, grade
        graded += badges
    assert graded > 0
    # each marker sits on the line of the player who made the mistake, at its event
    move_list = text.split('<table class="moves">', 1)[1].split('<section class="chart-pane">')[0]
    moves = move_list.split('<tr class="move"')[1:]
    badged = {
        int(re.findall(r'<td class="num">(\d+)</td>', row)[0])
        for row in moves
        if re.search(r'class="badge (small|medium|large)"', row)
    }
    marked = {int(e) for e in re.findall(r'<g class="mistake \w+" data-event="(\d+)"', chart)}
    assert marked == badged


def test_clicking_a_judged_move_shows_it_on_the_board(
    pages: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = pages["report"].read_text(encoding="utf-8")
    payload = text.split('<script type="application/json" id="positions">', 1)[1]
    positions = json.loads(payload.split("</script>", 1)[0])["positions"]
    driver = chromium(tmp_path, monkeypatch)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    def state() -> tuple[str, set[str], int]:
        return (
            str(driver.execute_script("return document.body.dataset.position")),
            {
                str(t.get_attribute("data-square"))
                for t in driver.find_elements(By.CSS_SELECTOR, "#board g.tile.candidate")
            },
            len(driver.find_elements(By.CSS_SELECTOR, "#board g.tile:not(.candidate)")),
        )

    try:
        driver.set_window_size(1280, 1000)
        driver.get(pages["report"].as_uri())
        rows = driver.find_elements(By.CSS_SELECTOR, '.judged tr[role="button"]')
        # the second turn's candidates: played from the position after the first event
        second = [r for r in rows if r.get_attribute("data-before") == "1"]
        assert len(second) >= 2
        first, other = second[0], second[1]
        put = json.loads(str(first.get_attribute("data-tiles")))
        squares = {t[4] for t in put}
        assert squares and first.get_attribute("aria-pressed") == "false"
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
        first.click()
        # the board before the move, its tiles, and the candidate's tiles over it
        assert state() == ("1", squares, len(positions[1]["tiles"]))
        assert first.get_attribute("aria-pressed") == "true"
        caption = driver.find_element(By.ID, "caption").text
        move = first.find_element(By.TAG_NAME, "td").text
        assert caption.startswith(f"candidate {move} +")
        assert " for B'\\x1b]0;x\\x07</td>\\x9b: win " in caption  # whose win%, as shown
        # told apart from the tiles on the board: another fill and a dashed edge
        fill = "return getComputedStyle(document.querySelector(arguments[0])).fill"
        assert driver.execute_script(fill, "#board g.candidate rect") != driver.execute_script(
            fill, "#board g.tile:not(.candidate) rect"
        )
        dashes = "return getComputedStyle(document.querySelector(arguments[0])).strokeDasharray"
        assert driver.execute_script(dashes, "#board g.candidate rect") != "none"
        # another candidate: switches
        other.click()
        other_squares = {t[4] for t in json.loads(str(other.get_attribute("data-tiles")))}
        assert state() == ("1", other_squares, len(positions[1]["tiles"]))
        assert first.get_attribute("aria-pressed") == "false"
        assert other.get_attribute("aria-pressed") == "true"
        # clicking it again: the board as it was, without the candidate
        other.click()
        assert state() == ("1", set(), len(positions[1]["tiles"]))
        assert other.get_attribute("aria-pressed") == "false"
        # from the keyboard: Enter shows it, Space hides it again
        driver.find_element(By.ID, "last").click()
        assert state()[0] == str(len(positions) - 1)
        first.send_keys(Keys.ENTER)
        assert state() == ("1", squares, len(positions[1]["tiles"]))
        first.send_keys(Keys.SPACE)
        assert state() == ("1", set(), len(positions[1]["tiles"]))
        # stepping on clears it
        first.send_keys(Keys.ENTER)
        driver.find_element(By.ID, "next").click()
        assert state() == ("2", set(), len(positions[2]["tiles"]))
        # a phone: the board is far above the move list; picking a move brings it into view
        driver.set_window_size(390, 844)
        driver.get(pages["report"].as_uri())
        row = driver.find_elements(By.CSS_SELECTOR, '.judged tr[role="button"]')[-1]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
        seen = (
            "var r = document.getElementById('board').getBoundingClientRect();"
            "return r.bottom > 0 && r.top < window.innerHeight;"
        )
        assert not driver.execute_script(seen)
        row.click()
        assert driver.execute_script(seen)
        errors = [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
        assert errors == []
    finally:
        driver.quit()


def test_candidate_tiles_read_from_the_notation() -> None:
    from gcgtools.render.judgement_html import candidate_tiles
    from gcgtools.rules.tiles import tile_set

    english = tile_set("english")
    assert candidate_tiles("8G HEX", english) == [(7, 6, "H", 4), (7, 7, "E", 1), (7, 8, "X", 8)]
    # down, through a tile on the board, a blank
    assert candidate_tiles("I7 O(X)IdES", english) == [
        (6, 8, "O", 1), (8, 8, "I", 1), (9, 8, "d", None), (10, 8, "E", 1), (11, 8, "S", 1)
    ]  # fmt: skip
    spanish = tile_set("spanish")
    assert candidate_tiles("8D [CH]E", spanish) == [(7, 3, "CH", 5), (7, 4, "E", 1)]
    for nothing in ("exchange UV", "-UV", "-", "pass", "8D [CHE", ""):
        assert candidate_tiles(nothing, english) == []


def test_a_mistake_marker_shows_the_board_after_the_mistake(
    pages: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = pages["report"].read_text(encoding="utf-8")
    # each marker names the position after its event: the one its move's row shows
    marks = re.findall(r'<g class="mistake \w+" data-event="(\d+)" data-position="(\d+)"', text)
    rows = dict(
        re.findall(r'<tr class="move" data-position="(\d+)"[^>]*><td class="num">(\d+)<', text)
    )
    assert marks and all(rows[position] == event for event, position in marks)
    driver = chromium(tmp_path, monkeypatch)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    try:
        driver.get(pages["report"].as_uri())
        markers = driver.find_elements(By.CSS_SELECTOR, ".win-chart g.mistake")
        assert len(markers) == len(marks)
        driver.find_element(By.ID, "first").click()
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", markers[0])
        markers[0].find_element(By.TAG_NAME, "circle").click()  # the marker itself
        position = "return document.body.dataset.position"
        assert driver.execute_script(position) == markers[0].get_attribute("data-position")
        driver.find_element(By.ID, "first").click()
        markers[-1].send_keys(Keys.ENTER)  # from the keyboard too
        assert driver.execute_script(position) == markers[-1].get_attribute("data-position")
    finally:
        driver.quit()
