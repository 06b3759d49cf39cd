"""Lexicon and leave options fail loudly (issue 18 item 1): a missing, unreadable or damaged
file given to any analysing command is one line naming it and exit 2, checked before the
batch starts; a damaged file found in the lexicon folder fails its records in the workers
(never "no analysis" and exit 0); `analyse` without any lexicon is an error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.lexicon import LexiconError, klv_bytes
from gcgtools.lexicon.choice import LexiconChoice, choose
from gcgtools.rules import tile_set

# club-final.gcg names #lexicon ENABLE2K
EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "club-final.gcg")
runner = CliRunner()
pytestmark = pytest.mark.usefixtures("private_cache")

WORDS = "fuzt\nfutz\nyette\npeag\nqi\nza\n"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    words = tmp_path / "mini.txt"
    words.write_text(WORDS, encoding="utf-8")
    good = klv_bytes([(b"\x05", 3.0), (b"\x13", 8.0)])
    klv = tmp_path / "good.klv2"
    klv.write_bytes(good)
    cut = tmp_path / "cut.klv2"
    cut.write_bytes(good[:-1])
    kwg = tmp_path / "bad.kwg"
    kwg.write_bytes(b"\x01\x00\x00\x00" * 3 + b"\xff\xff\x3f\x00")  # an arc out of range
    nan = tmp_path / "nan.csv"
    nan.write_text("E,nan\n", encoding="utf-8")
    return {"words": str(words), "klv": str(klv), "cut": str(cut), "kwg": str(kwg),
            "nan": str(nan), "missing": str(tmp_path / "nosuch.kwg"),
            "missing_leaves": str(tmp_path / "nosuch.klv2"), "dir": str(tmp_path)}  # fmt: skip


def commands(out: Path) -> list[list[str]]:
    return [
        ["analyse", EXAMPLE],
        ["moves", EXAMPLE, "--rack", "AEINRST"],
        ["report", EXAMPLE, "-o", str(out / "r.html")],
        ["annotate", "--only", "analysis", EXAMPLE, "-o", str(out / "a.gcg")],
        ["stats", EXAMPLE],
        ["export", EXAMPLE, "-o", str(out / "e.csv")],
    ]


@pytest.mark.parametrize("index", range(6))
@pytest.mark.parametrize(
    ("options", "named", "says"),
    [
        (["--lexicon", "{missing}"], "missing", "cannot read lexicon"),
        (["--lexicon", "{kwg}"], "kwg", "not a KWG file"),
        (["--lexicon", "{words}", "--leaves", "{missing_leaves}"], "missing_leaves",
         "cannot read leave file"),
        (["--lexicon", "{words}", "--leaves", "{cut}"], "cut", "not a KLV file"),
        (["--lexicon", "{words}", "--leaves", "{nan}"], "nan", "is not a leave value"),
    ],
)  # fmt: skip
def test_a_bad_file_is_one_line_and_exit_2(
    files: dict[str, str], tmp_path: Path, index: int, options: list[str], named: str, says: str
) -> None:
    command = commands(tmp_path)[index]
    code, out, err = run(*command, *(o.format(**files) for o in options))
    assert code == 2, (command, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and files[named] in lines[0] and says in lines[0], err
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "e.csv").exists()


def test_analyse_without_a_lexicon_says_how_to_give_one(monkeypatch) -> None:
    monkeypatch.delenv("GCGTOOLS_LEXICA", raising=False)
    code, out, err = run("analyse", EXAMPLE)
    assert code == 2 and out == ""
    assert "--lexicon" in err and "--lexica" in err and "GCGTOOLS_LEXICA" in err


def test_annotate_only_analysis_without_a_lexicon_is_an_error(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("GCGTOOLS_LEXICA", raising=False)
    out = tmp_path / "a.gcg"
    code, _, err = run("annotate", "--only", "analysis", EXAMPLE, "-o", str(out))
    assert code == 2 and "--lexicon" in err and not out.exists()
    code, _, _ = run("annotate", "--only", "analysis", "--only", "words", EXAMPLE, "-o", str(out))
    assert code == 0 and out.exists()  # the analysis is one of its notes: an extra


def test_commands_where_analysis_is_an_extra_work_without_one(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("GCGTOOLS_LEXICA", raising=False)
    assert run("stats", EXAMPLE)[0] == 0
    assert run("report", EXAMPLE, "-o", str(tmp_path / "r.html"))[0] == 0
    assert run("annotate", EXAMPLE, "-o", str(tmp_path / "a.gcg"))[0] == 0


def test_a_lexica_folder_that_is_none_is_refused(tmp_path: Path) -> None:
    code, _, err = run("stats", EXAMPLE, "--lexica", str(tmp_path / "nofolder"))
    assert code == 2 and "nofolder: not a folder" in err


@pytest.mark.parametrize("damaged", ["ENABLE2K.kwg", "LEAVES.klv2"])
def test_a_damaged_file_found_in_the_folder_fails_the_record(
    files: dict[str, str], tmp_path: Path, damaged: str
) -> None:
    folder = tmp_path / "lexica"
    folder.mkdir()
    shutil.copy(files["words"], folder / "ENABLE2K.txt")
    (folder / damaged).write_bytes(Path(files["cut"]).read_bytes())
    for command in commands(tmp_path):
        if command[0] == "moves":
            continue  # moves reads its lexicon in the process: same message, exit 2
        code, out, err = run(*command, "--lexica", str(folder))
        assert code == 2, (command, out, err)
        assert str(folder / damaged) in err, (command, err)


def test_choose_raises_for_a_damaged_file_instead_of_no_analysis(files: dict[str, str]):
    with pytest.raises(LexiconError, match="bad.kwg"):
        choose(LexiconChoice.of(files["kwg"]), None, tile_set("english"))
    with pytest.raises(ValueError, match="cut.klv2"):
        choose(LexiconChoice.of(files["words"], None, files["cut"]), None, tile_set("english"))


def test_the_check_does_not_need_the_records_tile_set(tmp_path: Path) -> None:
    # a Spanish word list and leave CSV named for no tile set: checked for structure only
    words = tmp_path / "lista.txt"
    words.write_text("ÑU\nAÑO\n", encoding="utf-8")
    leaves = tmp_path / "hojas.csv"
    leaves.write_text("Ñ,-3.5\nCH,-1\n", encoding="utf-8")
    LexiconChoice.of(words, None, leaves).check()
    with pytest.raises(ValueError, match="hojas.csv"):
        LexiconChoice.of(words, None, leaves).check(tile_set("english"))
