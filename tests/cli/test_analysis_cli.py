"""The analysis from the outside: `gcgtools analyse`, `annotate --only analysis`, the frames'
analysis columns with and without a lexicon, `stats`/`export --lexicon`."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from support.reference_data import DATA, needs_data
from typer.testing import CliRunner

from gcgtools import parse_bytes, read_game
from gcgtools.cli import app
from gcgtools.edit.annotate import annotate
from gcgtools.lexicon import load_lexicon
from gcgtools.tables.frames import MOVE_DTYPES, games_frame, moves_frame, player_games_frame
from gcgtools.tables.stats import archive_stats

HERE = Path(__file__).resolve().parents[1] / "support" / "data"
RECORDS = HERE / "analysis_records"
runner = CliRunner()


pytestmark = [needs_data, pytest.mark.usefixtures("private_cache")]
ENABLE = str(DATA / "lexica" / "ENABLE.kwg") if DATA is not None else ""
ANALYSIS_MOVE_COLUMNS = ["equity", "best_move", "best_equity", "equity_lost", "phony_words",
                         "bingo_available"]  # fmt: skip


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    out = tmp_path / "games"
    out.mkdir()
    for name in ("w801-phony-stood.gcg", "w803-bonus-after-phony.gcg"):
        shutil.copy(RECORDS / name, out / name)
    return out


# ------------------------------------------------------------------ analyse
def test_analyse_text_table(folder: Path) -> None:
    code, out, _ = run("analyse", str(folder), "--lexicon", ENABLE, "--jobs", "1")
    assert code == 0
    lines = out.splitlines()
    # the lexicon and leaves are said once for the run, not once per file
    assert lines[0].startswith("lexicon ENABLE: ENABLE.kwg")
    # the lexicon line wraps at 80 columns: its note on ENABLE's missing words continues it
    leaves = next(i for i, line in enumerate(lines) if line.startswith("leaves "))
    assert all(line.startswith("  ") for line in lines[1:leaves])
    assert "QI, ZA, KI, ZO" in " ".join(lines[:leaves])
    assert "leaves builtin" in lines[leaves]
    assert sum(line.startswith("lexicon ") for line in lines) == 1
    assert lines[leaves + 2] == str(folder / "w801-phony-stood.gcg")
    head = lines[leaves + 3].split()
    assert head == ["#", "player", "played", "equity", "lost", "rank", "best"]
    bob = next(line for line in lines if line.split()[:2] == ["2", "Bob"])
    assert "H5 WOG(R)" in bob and "phony" in bob  # a phony has no rank
    assert any(line.strip() == "phony WOGR stood: not a legal move, no rank" for line in lines)
    assert any(line.strip().startswith("line 6: W801 ") for line in lines)
    assert any(line.strip().startswith("line 6: W803 ") for line in lines)
    summary = lines.index("  player  turns  best  avg lost  phonies  stood  missed bingos")
    assert lines[summary + 2].split()[:3] == ["Bob", "1", "0"]
    assert max(len(line) for line in lines if not line.startswith(str(folder))) <= 80


def test_analyse_text_names_the_missed_bingo_and_lists_top_moves(tmp_path: Path) -> None:
    record = tmp_path / "missed.gcg"
    record.write_text("#player1 A\n#player2 B\n>A: AEINRST 8H RETAIN +14 14\n")
    code, out, _ = run("analyse", str(record), "--lexicon", ENABLE, "--no-cache")
    assert code == 0
    note = next(line.strip() for line in out.splitlines() if "missed bingo" in line)
    move, score = note.removeprefix("missed bingo ").rsplit(" ", 1)
    assert move.split()[1] in {"RETAINS", "RETSINA", "STAINER", "NASTIER", "STEARIN",
                               "RATINES", "ANESTRI", "RETINAS"} and int(score) >= 66  # fmt: skip
    assert not any(line.strip().startswith("1. ") for line in out.splitlines())
    code, out, _ = run("analyse", str(record), "--lexicon", ENABLE, "--top", "3", "--no-cache")
    listed = [line.strip() for line in out.splitlines() if line.strip()[:2] in {"1.", "2.", "3."}]
    assert len(listed) == 3
    assert all(" score " in line and " leave " in line and " equity " in line for line in listed)
    # the table fits 80 columns; the line naming the record is as long as its path
    assert all(len(line) <= 80 for line in out.splitlines() if str(record) not in line)


def test_analyse_json_one_object_per_file(folder: Path) -> None:
    code, out, _ = run("analyse", str(folder), "--lexicon", ENABLE, "-f", "json", "--top", "2")
    assert code == 0
    objects = [json.loads(line) for line in out.splitlines()]
    assert [Path(o["path"]).name for o in objects] == [
        "w801-phony-stood.gcg", "w803-bonus-after-phony.gcg"
    ]  # fmt: skip
    first = objects[0]
    assert first["lexicon"] == "ENABLE" and first["leaves"] == "builtin"
    assert [f["code"] for f in first["findings"]] == ["W801"]
    retains, wog = first["turns"]
    assert retains["event"] == 1 and retains["status"] == "analysed"
    assert len(retains["best"]) == 2 and retains["best"][0]["move"]
    assert {"kind", "coord", "word", "tiles", "score", "leave", "equity"} <= set(retains["best"][0])
    assert retains["rank"] == 1 and retains["equity_lost"] == 0
    assert wog["phony_words"] == ["WOGR"] and wog["legal"] is False
    assert first["players"]["Bob"]["phonies_stood"] == 1


def test_analyse_without_a_lexicon_is_an_error(folder: Path) -> None:
    # its one job is analysis (issue 18 item 1): one line saying how to give a lexicon
    env = {k: v for k, v in os.environ.items() if k != "GCGTOOLS_LEXICA"}
    result = runner.invoke(app, ["analyse", str(folder / "w801-phony-stood.gcg")], env=env)
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "no lexicon" in line and "--lexicon" in line and "GCGTOOLS_LEXICA" in line


def test_analyse_record_lexicon_from_the_lexica_folder(folder: Path, tmp_path: Path) -> None:
    lexica = tmp_path / "lexica"
    lexica.mkdir()
    (lexica / "ENABLE.kwg").symlink_to(Path(ENABLE).resolve())
    code, out, _ = run("analyse", str(folder / "w801-phony-stood.gcg"), "--lexica", str(lexica))
    assert code == 0 and "lexicon ENABLE" in out and "W801" in out
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, _ = run("analyse", str(folder / "w801-phony-stood.gcg"), "--lexica", str(empty))
    assert code == 0 and "no lexicon: ENABLE not found in" in out


def test_analyse_lists_unreadable_files(folder: Path) -> None:
    (folder / "broken.gcg").write_bytes(b"")
    code, out, err = run("analyse", str(folder), "--lexicon", ENABLE, "-j", "1")
    assert code == 2
    assert "could not read 1 file:" in err and "broken.gcg" in err
    assert "W801" in out  # the other files were analysed


# ------------------------------------------------------------------ annotate
def test_annotate_only_analysis_is_idempotent(tmp_path: Path) -> None:
    game = read_game(RECORDS / "w801-phony-stood.gcg")
    lexicon = load_lexicon(ENABLE)
    once = annotate(game, only="analysis", lexicon=lexicon)
    text = once.decode()
    assert "#note gcgtools: best " in text
    assert "#note gcgtools: phony WOGR" in text
    assert "#note gcgtools: W801 info: WOGR is not in the lexicon" in text
    twice = annotate(parse_bytes(once, game.path), only="analysis", lexicon=lexicon)
    assert twice == once
    # the original lines are untouched
    stripped = [line for line in text.splitlines() if not line.startswith("#note gcgtools:")]
    assert stripped == (RECORDS / "w801-phony-stood.gcg").read_text().splitlines()


def test_annotate_cli_analysis(tmp_path: Path) -> None:
    target = tmp_path / "out.gcg"
    code, _, err = run(
        "annotate", str(RECORDS / "w803-bonus-after-phony.gcg"), "--only", "analysis",
        "--lexicon", ENABLE, "-o", str(target),
    )  # fmt: skip
    assert code == 0 and "lexicon ENABLE" in err
    text = target.read_text()
    assert "W803 warning: challenge bonus after H5 WOG(R)" in text
    env = {k: v for k, v in os.environ.items() if k != "GCGTOOLS_LEXICA"}
    result = runner.invoke(
        app, ["annotate", str(RECORDS / "w803-bonus-after-phony.gcg"), "--only", "analysis"],
        env=env,
    )  # fmt: skip
    # --only analysis without any lexicon: its one job, so an error (issue 18 item 1)
    assert result.exit_code == 2 and "no lexicon" in result.stderr
    assert "#note gcgtools:" not in result.stdout


# ------------------------------------------------------------------ frames
def test_moves_frame_with_and_without_a_lexicon(folder: Path) -> None:
    plain = moves_frame([folder], jobs=1)
    analysed = moves_frame([folder], jobs=1, lexicon=ENABLE)
    assert list(plain.columns) == list(analysed.columns) == list(MOVE_DTYPES)
    assert dict(plain.dtypes.astype(str)) == dict(analysed.dtypes.astype(str))
    assert plain[ANALYSIS_MOVE_COLUMNS].isna().all().all()
    assert plain.attrs["analysis"] == []
    assert analysed.attrs["analysis"][0].startswith("lexicon ENABLE: ")
    wog = analysed[(analysed["player"] == "Bob") & (analysed["kind"] == "play")].iloc[0]
    assert wog["phony_words"] == "WOGR"
    retains = analysed[analysed["event"] == 1].iloc[0]
    assert retains["equity_lost"] == 0 and retains["best_equity"] == retains["equity"]
    assert retains["bingo_available"] and retains["phony_words"] == ""
    assert isinstance(retains["best_move"], str) and retains["best_move"][:1].isdigit()
    # a bonus line is no turn: nothing to analyse
    bonus = analysed[analysed["kind"] == "challenge_bonus"].iloc[0]
    assert pd.isna(bonus["equity"]) and pd.isna(bonus["phony_words"])


def test_games_and_player_frames_with_a_lexicon(folder: Path) -> None:
    games = games_frame([folder], jobs=1, lexicon=load_lexicon(ENABLE))
    plain = games_frame([folder], jobs=1)
    assert list(games.columns) == list(plain.columns)
    assert dict(games.dtypes.astype(str)) == dict(plain.dtypes.astype(str))
    assert games["analysis_lexicon"].str.startswith("lexicon ENABLE").all()
    assert plain["analysis_lexicon"].isna().all() and plain["phonies_stood2"].isna().all()
    first = games.iloc[0]  # w801: Bob's WOGR stood
    assert (first["phonies_played2"], first["phonies_stood2"]) == (1, 1)
    assert first["phonies_played1"] == 0 and first["missed_bingos1"] == 0
    assert first["avg_equity_lost1"] == 0  # RETAINS was the best move
    second = games.iloc[1]  # w803: the challenge bonus: it stood
    assert second["phonies_stood2"] == 1
    players = player_games_frame([folder], jobs=1, lexicon=ENABLE)
    bob = players[players["player"] == "Bob"]
    assert bob["phonies_played"].tolist() == [1, 1]
    assert bob["analysed_turns"].tolist() == [1, 1]


def test_stats_with_a_lexicon(folder: Path) -> None:
    stats = archive_stats([folder], jobs=1, lexicon=ENABLE)
    assert stats.loc["Bob", "phonies_stood"] == 2
    assert stats.loc["Alice", "avg_equity_lost"] == 0
    assert stats.attrs["analysis"][0].startswith("lexicon ENABLE")
    code, out, err = run("stats", str(folder), "--lexicon", ENABLE, "-f", "json", "-j", "1")
    assert code == 0 and "analysis: lexicon ENABLE" in err
    rows = [json.loads(line) for line in out.splitlines()]  # JSON Lines
    bob = next(r for r in rows if r["player"] == "Bob")
    assert bob["phonies_played"] == 2 and bob["missed_bingos"] == 0


def test_export_with_a_lexicon(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "moves.parquet"
    code, _, err = run("export", str(folder), "-o", str(out), "--lexicon", ENABLE, "-j", "1")
    assert code == 0 and "analysis: lexicon ENABLE" in err
    frame = pd.read_parquet(out)
    assert list(frame.columns) == list(MOVE_DTYPES)
    assert frame["phony_words"].tolist().count("WOGR") == 2


# ------------------------------------------------------------------ HTML report
def test_report_shows_the_top_moves_beside_the_recorded_one(tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    record = str(RECORDS / "w801-phony-stood.gcg")
    code, _, _ = run("report", record, "--lexicon", ENABLE, "--top", "3", "-o", str(target))
    assert code == 0
    html = target.read_text()
    # the lexicon said for a player, the files in a details element
    assert "analysis with ENABLE, built-in leaves <details><summary>files</summary>" in html
    assert "<div>lexicon ENABLE: ENABLE.kwg (KWG file " in html
    assert html.count('<table class="top-moves">') == 2  # both turns' racks are known
    head = "<thead><tr><th>move</th><th>score</th><th>leave</th><th>equity</th></tr></thead>"
    assert html.count(head) == 2
    # Bob's phony is not a legal move: shown below the three best, with its own numbers
    bob = html.split('data-line="6"', 1)[1].split("</tbody></table>", 1)[0]
    assert bob.count("<tr>") == 4  # the heads and the three best
    assert '<tr class="recorded"><td>H5 WOG(R)</td><td>8</td><td>DOPR</td>' in bob
    assert "equity lost" in bob and "(a phony: not among the" in bob and "phony: WOGR" in html
    # the per-player summary
    summary = html.split('<table class="player-analysis">', 1)[1].split("</table>", 1)[0]
    for head in ("turns analysed", "average equity lost", "best moves found", "phonies",
                 "missed bingos"):  # fmt: skip
        assert f"<th>{head}" in summary
    bob_row = summary.split(">Bob</td>", 1)[1].split("</tr>", 1)[0]
    assert bob_row.startswith('<td class="n">1</td>') and "1 (1)" in bob_row
    plain = tmp_path / "plain.html"
    env = {k: v for k, v in os.environ.items() if k != "GCGTOOLS_LEXICA"}
    result = runner.invoke(app, ["report", record, "-o", str(plain)], env=env)
    assert result.exit_code == 0 and 'top-moves"' not in plain.read_text()


# ------------------------------------------------------------------ result cache
def test_analysis_results_are_cached_by_content(folder: Path, tmp_path: Path) -> None:
    from gcgtools.batch.analyses import analyse_paths
    from gcgtools.batch.cache import cache_info

    first = [r.to_dict() for r in analyse_paths([folder], lexicon=ENABLE, jobs=1)]
    info = cache_info()
    assert info.kinds == {"analysis": 2} and (info.hits, info.misses) == (0, 2)
    renamed = tmp_path / "renamed.gcg"
    shutil.copy(folder / "w801-phony-stood.gcg", renamed)
    again = list(analyse_paths([folder, renamed], lexicon=ENABLE, jobs=1))
    assert (cache_info().hits, cache_info().misses) == (3, 2)
    assert [r.to_dict() for r in again[:2]] == first
    # the same content under another name: the result names the file asked for
    assert again[2].path == str(renamed)
    assert again[2].findings[0].path == str(renamed)
    # other parameters miss (more best moves than are stored); --no-cache neither reads
    # nor stores
    list(analyse_paths([renamed], lexicon=ENABLE, jobs=1, top=7))
    assert cache_info().misses == 3
    code, _, _ = run("analyse", str(renamed), "--lexicon", ENABLE, "--no-cache", "-j", "1")
    assert code == 0 and (cache_info().hits, cache_info().misses) == (3, 3)
    code, _, _ = run("analyse", str(renamed), "--lexicon", ENABLE, "-j", "1")
    assert code == 0 and cache_info().hits == 4


def test_stats_and_report_reuse_what_analyse_cached(folder: Path, tmp_path: Path) -> None:
    from gcgtools.batch.cache import cache_info

    code, first, _ = run("analyse", str(folder), "--lexicon", ENABLE, "-j", "1", "-f", "json")
    assert code == 0 and (cache_info().hits, cache_info().misses) == (0, 2)
    # stats keeps one best move a turn, report five: the same entries serve both
    code, _, _ = run("stats", str(folder), "--lexicon", ENABLE, "-j", "1", "-q")
    assert code == 0 and (cache_info().hits, cache_info().misses) == (2, 2)
    code, _, _ = run("report", str(folder), "--lexicon", ENABLE, "-o", f"{tmp_path}/site/", "-q")
    assert code == 0 and (cache_info().hits, cache_info().misses) == (4, 2)
    # and a cut list is the same as a list computed that short
    code, top2, _ = run("analyse", str(folder), "--lexicon", ENABLE, "-j", "1", "-f", "json",
                        "--top", "2", "--no-cache")  # fmt: skip
    code, cut2, _ = run("analyse", str(folder), "--lexicon", ENABLE, "-j", "1", "-f", "json",
                        "--top", "2")  # fmt: skip
    assert cut2 == top2 and cut2 != first
    assert (cache_info().hits, cache_info().misses) == (6, 2)


def test_dask_frames_take_the_lexicon_too(folder: Path) -> None:
    import dask  # in the test extras: missing, this test fails

    from gcgtools.tables import dask_frames

    with dask.config.set(scheduler="synchronous"):
        lazy = dask_frames.games_frame([folder], lexicon=ENABLE).compute()
    eager = games_frame([folder], jobs=1, lexicon=ENABLE)
    columns = ["analysis_lexicon", "phonies_played2", "phonies_stood2", "avg_equity_lost1"]
    assert lazy[columns].reset_index(drop=True).equals(eager[columns].reset_index(drop=True))


# Macondo's Spanish records declare the multi-letter tiles (#tile [CH] [ch]); the word
# CHICOS is then the tiles CH-I-C-O-S. The second play runs down to the bottom row.
SPANISH_CH = """\
#character-encoding UTF-8
#lexicon FILE2017
#tile-distribution spanish
#tile [CH] [ch]
#player1 A Ann
#player2 B Bob
>A: [CH]ICOSE H8 [CH]ICOS +24 24
>B: AASEEEI H8 .....AAS +42 42
>A: EAEIOUA 8D AEIO. +10 34
"""
SPANISH_WORDS = "[CH]ICO\n[CH]ICOS\n[CH]ICOSAAS\nAAS\nAEIO[CH]\n"


def test_multi_letter_tiles_to_the_board_edge_are_analysed(tmp_path: Path) -> None:
    record = tmp_path / "chicos.gcg"
    record.write_text(SPANISH_CH, encoding="utf-8")
    words = tmp_path / "spanish-words.txt"
    words.write_text(SPANISH_WORDS, encoding="utf-8")
    code, out, err = run("analyse", str(record), "--lexicon", str(words), "-f", "json")
    assert code == 0, err
    turns = json.loads(out)["turns"]
    assert [t["played"] for t in turns] == ["H8 [CH]ICOS", "H8 ([CH]ICOS)AAS", "8D AEIO([CH])"]
    assert [t["phony_words"] for t in turns] == [[], [], []]
    assert turns[1]["best"][0]["move"] == "H8 ([CH]ICOS)AAS"  # the recorded move, found
    code, out, err = run("annotate", str(record), "--only", "analysis", "--lexicon", str(words))
    assert code == 0 and "Traceback" not in err and "IndexError" not in out + err
    for command in ("stats", "export"):
        target = [] if command == "stats" else ["-o", str(tmp_path / "moves.csv")]
        code, out, err = run(command, str(record), "--lexicon", str(words), *target)
        assert code == 0 and "F010" not in out + err and "could not" not in err, (command, err)
    code, out, err = run(
        "report", str(record), "--lexicon", str(words), "-o", str(tmp_path / "r.html")
    )
    assert code == 0, err
    assert "([CH]ICOS)AAS" in (tmp_path / "r.html").read_text(encoding="utf-8")
