"""annotate, fix, write, report, picture and board -o over many records: -o DIR (one
output per input, named after it; clashing names), --in-place, bad files, exit codes; and
the static site of `report PATH... -o SITE/`, in headless Chromium."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support.browser import check_self_contained, chromium
from support.samples_annotator import BINGO, GAME
from typer.testing import CliRunner

from gcgtools import parse_string
from gcgtools.cli import app
from gcgtools.edit.annotate import annotate
from gcgtools.edit.fix import fix_record
from gcgtools.jobs.outputs import naming_for
from gcgtools.render.writer import write_gcg

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PNG = b"\x89PNG\r\n\x1a\n"
WRONG = GAME.replace("8G HEX +26 26", "8G HEX +20 20").replace("O.IDES +16 16", "O.IDES +16 10")


def _archive(tmp_path: Path) -> Path:
    """in/game.gcg, in/bingo.gcg, in/sub/wrong.gcg, in/sub/broken.gcg (unreadable)."""
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "game.gcg").write_text(GAME)
    (root / "bingo.gcg").write_text(BINGO)
    (root / "sub" / "wrong.gcg").write_text(WRONG)
    (root / "sub" / "broken.gcg").write_bytes(b"\xff\xfe\x00garbage\n>x: y\n")
    return root


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_naming_flat_and_clashes(tmp_path: Path) -> None:
    files = ["x/a/game.gcg", "x/b/Game.gcg", "x/c/other.gcg"]
    naming = naming_for(files, "out", ".html")
    assert naming.target("x/c/other.gcg") == str(Path("out/other.html"))
    # the clashing names (case ignored) keep their folders below their common folder
    assert naming.target("x/a/game.gcg") == str(Path("out/a/game.html"))
    assert naming.target("x/b/Game.gcg") == str(Path("out/b/Game.html"))
    same_folder = naming_for(["d/game.gcg", "d/GAME.gcg"], "out", ".gcg")
    targets = {same_folder.target("d/game.gcg"), same_folder.target("d/GAME.gcg")}
    assert targets == {str(Path("out/game.gcg")), str(Path("out/GAME-2.gcg"))}
    assert naming_for(files, None, ".gcg").target("x/a/game.gcg") == "x/a/game.gcg"


def test_write_annotate_fix_to_a_folder(tmp_path: Path) -> None:
    root = _archive(tmp_path)
    out = tmp_path / "out"
    code, stdout, stderr = _run("write", str(root), "--normalise", "-o", str(out))
    assert code == 2  # broken.gcg could not be read; the others were written
    assert sorted(p.name for p in out.iterdir()) == ["bingo.gcg", "game.gcg", "wrong.gcg"]
    game = parse_string(GAME, str(root / "game.gcg"))
    assert (out / "game.gcg").read_bytes() == write_gcg(game, normalise=True)
    assert "wrote 3 records" in stdout
    assert "broken.gcg" in stderr and "could not do 1 file" in stderr

    notes = tmp_path / "notes"
    code, _, _ = _run("annotate", str(root / "game.gcg"), str(root / "bingo.gcg"), "-o", str(notes))
    assert code == 0
    assert (notes / "bingo.gcg").read_bytes() == annotate(parse_string(BINGO))

    fixed = tmp_path / "fixed"
    code, stdout, _ = _run("fix", str(root / "sub"), "-o", str(fixed), "--quiet")
    assert code == 2  # broken.gcg again
    expected = fix_record(parse_string(WRONG, str(root / "sub" / "wrong.gcg")))
    assert (fixed / "wrong.gcg").read_bytes() == expected.data
    assert "score +20 -> +26" in stdout and "+ >Ann: AEHMRTX 8G HEX +26 26" in stdout
    assert not (fixed / "broken.gcg").exists()


def test_in_place_and_refusals(tmp_path: Path) -> None:
    root = tmp_path / "in"
    root.mkdir()
    (root / "a.gcg").write_text(WRONG)
    (root / "b.gcg").write_text(GAME)
    code, _, _ = _run("fix", str(root), "--in-place")
    assert code == 0
    assert (root / "a.gcg").read_text() == GAME  # both corrected, the clean one unchanged
    assert (root / "b.gcg").read_text() == GAME
    # several records need somewhere to go
    code, _, stderr = _run("annotate", str(root))
    assert code == 2 and "-o DIR" in stderr and not list(tmp_path.glob("in/*.tmp"))
    code, _, stderr = _run("write", str(root), "-o", str(tmp_path / "x"), "--in-place")
    assert code == 2 and "not both" in stderr
    # an output folder that is the input folder would overwrite the inputs: refused
    code, _, stderr = _run("write", str(root), "-o", str(root) + "/")
    assert code == 2 and "--in-place" in stderr
    assert (root / "a.gcg").read_text() == GAME
    code, _, stderr = _run("write", str(tmp_path / "nothing-here"), "-o", str(tmp_path / "o/"))
    assert code == 2
    # several records and -o a file name: a mistake, not a folder called out.gcg
    code, _, stderr = _run("write", str(root), "-o", str(tmp_path / "out.gcg"))
    assert code == 2 and "must name a folder" in stderr
    assert not (tmp_path / "out.gcg").exists()


def test_single_record_behaviour_unchanged(tmp_path: Path) -> None:
    src = tmp_path / "game.gcg"
    src.write_text(GAME)
    code, stdout, _ = _run("write", str(src))
    assert code == 0 and stdout == GAME
    code, stdout, _ = _run("write", str(src), "-o", "-")
    assert code == 0 and stdout == GAME
    code, _, _ = _run("write", str(src), "-o", str(tmp_path / "copy.gcg"))
    assert code == 0 and (tmp_path / "copy.gcg").read_text() == GAME
    # one record and -o naming a folder: one output in it, named after the input
    (tmp_path / "dir").mkdir()
    code, _, _ = _run("write", str(src), "-o", str(tmp_path / "dir"))
    assert code == 0 and (tmp_path / "dir" / "game.gcg").read_text() == GAME


def test_pictures_of_many_records(tmp_path: Path) -> None:
    root = _archive(tmp_path)
    out = tmp_path / "pics"
    code, stdout, stderr = _run("picture", str(root), "-o", str(out), "--format", "png", "-m", "1")
    assert code == 2 and "broken.gcg" in stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == ["bingo.png", "game.png", "wrong.png"]
    assert all((out / n).read_bytes().startswith(PNG) for n in names)
    assert "wrote 3 pictures" in stdout
    boards = tmp_path / "boards"
    code, _, _ = _run("board", str(root / "game.gcg"), str(root / "bingo.gcg"), "-o", str(boards))
    assert code == 0
    assert (boards / "game.svg").read_text().startswith("<svg")
    # --move beyond a record's events: that record fails, the others are drawn
    code, _, stderr = _run("picture", str(root / "game.gcg"), str(root / "bingo.gcg"), "-m", "3",
                           "-o", str(tmp_path / "m3"))  # fmt: skip
    assert code == 2 and "bingo.gcg" in stderr and (tmp_path / "m3" / "game.svg").exists()
    # one picture says what it wrote
    code, stdout, _ = _run(
        "picture", str(root / "game.gcg"), "-m", "2", "-o", str(tmp_path / "p.png")
    )
    assert code == 0 and stdout.strip() == (
        f"wrote the board after event 2 of {root / 'game.gcg'} to {tmp_path / 'p.png'}"
    )


def test_text_boards_of_several_records(tmp_path: Path) -> None:
    root = _archive(tmp_path)
    code, stdout, _ = _run("board", str(root / "game.gcg"), str(root / "bingo.gcg"), "-m", "1")
    assert code == 0
    assert f"==> {root / 'game.gcg'} <==" in stdout and f"==> {root / 'bingo.gcg'} <==" in stdout
    assert "8G HEX +26" in stdout and "8D NASTIER +66" in stdout


# ----------------------------------------------------------------------------- the site
class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.heads: list[str] = []
        self._th = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a" and a.get("href") and not a["href"].startswith("#"):
            self.links.append(a["href"] or "")
        self._th = tag == "th"

    def handle_data(self, data: str) -> None:
        if self._th:
            self.heads.append(data)
            self._th = False


def _self_contained(html: str) -> None:
    """As the single report, but matplotlib's charts may refer to their own elements
    (``clip-path="url(#p1)"``): a fragment of the page, never a fetch."""
    assert re.findall(r"url\((?!#)", html) == []
    check_self_contained(html.replace("url(#", "fragment(#"))


def _site(tmp_path: Path) -> Path:
    root = tmp_path / "archive"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    shutil.copy(EXAMPLES / "club-final.gcg", root / "a" / "game.gcg")
    shutil.copy(EXAMPLES / "three-players.gcg", root / "b" / "game.gcg")
    shutil.copy(EXAMPLES / "training-game.gcg", root)
    (root / "broken.gcg").write_bytes(b"garbage\n")
    site = tmp_path / "site"
    code, stdout, stderr = _run("report", str(root), "-o", str(site) + "/", "-q")
    assert code == 2 and "broken.gcg" in stderr
    assert stdout.strip() == f"wrote a site of 3 games to {site / 'index.html'}"
    return site


def test_site_files_and_links(tmp_path: Path) -> None:
    site = _site(tmp_path)
    index = (site / "index.html").read_text(encoding="utf-8")
    _self_contained(index)
    parser = _Links()
    parser.feed(index)
    assert parser.links == ["games/a/game.html", "games/b/game.html", "games/training-game.html"]
    for link in parser.links:
        page = (site / link).read_text(encoding="utf-8")
        _self_contained(page)
        back = "../../index.html" if link.count("/") == 2 else "../index.html"
        assert f'class="back" href="{back}"' in page
    assert parser.heads[:2] == ["#", "game"] and "findings" in parser.heads
    assert "broken.gcg" in index  # listed under the table with its reason
    assert '<section class="charts">' in index and index.count("<svg") == 1


def test_site_in_headless_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = _site(tmp_path)
    driver = chromium(tmp_path, monkeypatch)
    from selenium.webdriver.common.by import By

    try:
        driver.get((site / "index.html").as_uri())

        def column(name: str) -> list[str]:
            heads = [h.text.strip(" ↕▲▼") for h in driver.find_elements(By.CSS_SELECTOR, "th")]
            i = heads.index(name)
            return [
                row.find_elements(By.TAG_NAME, "td")[i].text
                for row in driver.find_elements(By.CSS_SELECTOR, "#games tbody tr")
            ]

        def head(name: str):  # noqa: ANN202 - a selenium element
            return next(
                h for h in driver.find_elements(By.CSS_SELECTOR, "th") if h.text.startswith(name)
            )

        assert column("events") == ["35", "18", "28"]  # the order of the files
        head("events").click()
        assert column("events") == ["18", "28", "35"]
        assert head("events").get_attribute("aria-sort") == "ascending"
        head("events").click()
        assert column("events") == ["35", "28", "18"]
        head("game").click()  # text: the titles in alphabetical order
        titles = column("game")
        assert titles == sorted(titles, key=str.lower)
        assert head("events").get_attribute("aria-sort") is None
        # a link opens the game's page, whose link goes back to the index
        driver.find_element(By.LINK_TEXT, "gcgtools example: three players").click()
        assert driver.current_url.endswith("/games/b/game.html")
        assert "three players" in driver.find_element(By.TAG_NAME, "h1").text
        assert len(driver.find_elements(By.CSS_SELECTOR, "tr.move")) == 18
        driver.find_element(By.ID, "first").click()
        assert "to move" in driver.find_element(By.ID, "tomove").text
        driver.find_element(By.CSS_SELECTOR, "a.back").click()
        assert driver.current_url.endswith("/site/index.html")
        resources = driver.execute_script("return performance.getEntriesByType('resource')")
        assert resources == []
        errors = [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
        assert errors == []
    finally:
        driver.quit()


def test_worker_processes_give_the_same_outputs(tmp_path: Path) -> None:
    # 16 records and two jobs: the batch goes to a pool of worker processes (the job and
    # its naming are pickled to them); the outputs are those of one process
    root = tmp_path / "in"
    root.mkdir()
    for i in range(16):
        (root / f"g{i:02}.gcg").write_text(WRONG if i % 2 else GAME)
    code, stdout, _ = _run("fix", str(root), "-o", str(tmp_path / "two"), "-j", "2", "-q")
    assert code == 0 and "wrote 16 records" in stdout
    code, _, _ = _run("fix", str(root), "-o", str(tmp_path / "one"), "-j", "1", "-q")
    assert code == 0
    for i in range(16):
        two = (tmp_path / "two" / f"g{i:02}.gcg").read_text()
        assert two == (tmp_path / "one" / f"g{i:02}.gcg").read_text() == GAME
