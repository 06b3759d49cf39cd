"""One event number means the same event everywhere: `bingos`, `board --move N`, the moves
frame and the HTML report.

The event number is the 1-based index of the event line in the record (every event line
counts: plays, passes, exchanges, withdrawals, bonuses, end-of-game lines); the position
"after event N" is the board after that event, and event 0 the empty board.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support.report_records import PHONY_BINGO
from typer.testing import CliRunner

from gcgtools import moves_frame, read_game, replay
from gcgtools.cli import app
from gcgtools.jobs.report import game_report_html

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


class _MoveRows(HTMLParser):
    """The move list of the HTML report: per row, its source line, the position it shows
    and the number in its first cell."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []
        self._cell: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "tr" and "move" in a.get("class", "").split():
            self.rows.append({"line": a["data-line"], "position": a["data-position"]})
        elif tag == "td" and self.rows and "num" in a.get("class", "").split():
            self._cell = ""

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.rows[-1]["number"] = self._cell.strip()
            self._cell = None


def _report_rows(path: Path) -> dict[int, dict[str, str]]:
    parser = _MoveRows()
    parser.feed(game_report_html(read_game(path)))
    return {int(row["line"]): row for row in parser.rows}


def _bingos(*paths: Path) -> list[dict[str, object]]:
    result = runner.invoke(app, ["bingos", *map(str, paths), "-f", "json", "-j", "1", "-q"])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def _board(path: Path, move: int) -> str:
    result = runner.invoke(app, ["board", str(path), "--move", str(move)])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("name", ["club-final.gcg", "three-players.gcg", "dialects.gcg"])
def test_one_event_number_in_bingos_board_moves_frame_and_report(name: str) -> None:
    path = ROOT / "examples" / name
    game = read_game(path)
    positions = list(replay(game))  # positions[N]: the position after event N
    moves = moves_frame([game])
    report = _report_rows(path)
    bingos = _bingos(path)
    assert bingos, "the example has bingos"
    for bingo in bingos:
        n = bingo["event"]
        assert isinstance(n, int)
        event = game.events[n - 1]  # event N is the N-th event line
        assert (event.nick, event.position) == (bingo["player"], bingo["position"])
        # the moves frame: the row of event N is that bingo
        (row,) = moves[moves["event"] == n].to_dict(orient="records")
        assert row["bingo"] and row["line"] == event.line
        # bingos writes the word as O1 HAN(G)OVER does: played-through letters in brackets
        shown = str(bingo["word"]).replace("(", "").replace(")", "")
        assert (row["word"], row["score"]) == (shown, bingo["score"])
        # the HTML report numbers that event's row N and shows the position after event N
        assert report[event.line]["number"] == str(n)
        assert report[event.line]["position"] == str(n)
        # board --move N: the board after event N, which has the bingo on it; N - 1 not
        after, before = _board(path, n), _board(path, n - 1)
        assert str(positions[n].board) in after
        assert str(positions[n - 1].board) in before
        assert str(positions[n].board) not in before


def test_board_move_zero_is_the_empty_board_and_the_default_the_last_event() -> None:
    path = ROOT / "examples" / "club-final.gcg"
    positions = list(replay(read_game(path)))
    assert str(positions[0].board) in _board(path, 0)
    last = runner.invoke(app, ["board", str(path)])
    assert last.exit_code == 0 and str(positions[-1].board) in last.stdout
    too_far = runner.invoke(app, ["board", str(path), "--move", str(len(positions))])
    assert too_far.exit_code == 2


def test_a_bingo_after_a_withdrawn_phony_is_numbered_by_event_lines(tmp_path: Path) -> None:
    # RETAINS (event 1) is withdrawn by event 2; TIRADES is event 3, though only the
    # second turn
    path = tmp_path / "phony.gcg"
    path.write_text(PHONY_BINGO, encoding="utf-8")
    (bingo,) = _bingos(path)
    assert (bingo["word"], bingo["event"]) == ("TIRADES", 3)
    assert _report_rows(path)[5]["number"] == "3"
    frame = moves_frame([str(path)])
    assert frame.loc[frame["bingo"], "event"].tolist() == [3]
