"""Which lexicon and which leaves: explicit paths, names in a lexicon folder, built-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from gcgtools.lexicon import (
    LEXICA_ENV,
    LexiconError,
    find_leaves,
    find_lexicon,
    klv_bytes,
    resolve_leaves,
    resolve_lexicon,
)
from gcgtools.lexicon.lookup import name_variants


@pytest.fixture(autouse=True)
def _isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("GCGTOOLS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv(LEXICA_ENV, raising=False)


@pytest.fixture
def lexica(tmp_path: Path) -> Path:
    folder = tmp_path / "lexica"
    folder.mkdir()
    (folder / "Tiny.TXT").write_text("care\nrace\n", encoding="utf-8")
    (folder / "other.txt.gz").write_bytes(b"")  # never reached for the names below
    return folder


def test_find_lexicon_case_insensitive(lexica: Path):
    assert find_lexicon("tiny", lexica) == lexica / "Tiny.TXT"
    assert find_lexicon("TINY", lexica) == lexica / "Tiny.TXT"
    assert find_lexicon("missing", lexica) is None
    assert find_lexicon(None, lexica) is None
    assert find_lexicon("tiny", None) is None
    assert find_lexicon("../lexica/tiny", lexica) is None
    assert find_lexicon("tiny", lexica / "no-such-folder") is None


def test_name_variants(lexica: Path):
    assert name_variants("NWL2023") == ["NWL2023", "NWL23"]
    assert name_variants("CSW21") == ["CSW21", "CSW2021"]
    assert name_variants("ECWL") == ["ECWL", "CEL"]
    assert name_variants("ENABLE") == ["ENABLE"]
    (lexica / "NWL23.kwg").write_bytes(b"")
    (lexica / "cel.txt").write_text("care\n", encoding="utf-8")
    assert find_lexicon("NWL2023", lexica) == lexica / "NWL23.kwg"
    assert find_lexicon("ECWL", lexica) == lexica / "cel.txt"
    (lexica / "ECWL.txt.gz").write_bytes(b"")
    assert find_lexicon("ECWL", lexica) == lexica / "ECWL.txt.gz"  # its own file first


def test_kwg_preferred_to_txt(lexica: Path):
    (lexica / "TINY.kwg").write_bytes(b"")
    assert find_lexicon("Tiny", lexica) == lexica / "TINY.kwg"


def test_resolve_by_record_name_with_environment(lexica: Path, monkeypatch):
    monkeypatch.setenv(LEXICA_ENV, str(lexica))
    lexicon = resolve_lexicon("tiny")
    assert lexicon is not None
    assert lexicon.name == "Tiny" and "Tiny.TXT" in lexicon.source
    assert "RACE" in lexicon and "CARES" not in lexicon


def test_resolve_with_lexica_argument(lexica: Path):
    lexicon = resolve_lexicon("TINY", lexica=lexica)
    assert lexicon is not None and len(lexicon) == 2


def test_missing_lexicon_is_none_without_exception(lexica: Path, monkeypatch):
    assert resolve_lexicon("CSW21", lexica=lexica) is None
    assert resolve_lexicon(None, lexica=lexica) is None
    assert resolve_lexicon("tiny") is None  # no folder at all
    monkeypatch.setenv(LEXICA_ENV, str(lexica / "nowhere"))
    assert resolve_lexicon("tiny") is None


def test_explicit_path_wins_and_reports_errors(lexica: Path, tmp_path: Path):
    mine = tmp_path / "mine.txt"
    mine.write_text("zebra\n", encoding="utf-8")
    lexicon = resolve_lexicon("tiny", path=mine, lexica=lexica)
    assert lexicon is not None and lexicon.name == "mine" and "ZEBRA" in lexicon
    with pytest.raises(LexiconError, match="cannot read lexicon"):
        resolve_lexicon("tiny", path=tmp_path / "absent.kwg")


def test_leaves_lookup_order(lexica: Path):
    leaves = resolve_leaves(lexica=lexica, lexicon_name="tiny")
    assert leaves.name == "builtin" and leaves.source == "built-in heuristic"
    (lexica / "leaves.CSV").write_text("S,7\n", encoding="utf-8")
    generic = resolve_leaves(lexica=lexica, lexicon_name="tiny")
    assert generic.name == "leaves" and generic.value("S") == 7.0
    (lexica / "TINY.klv2").write_bytes(klv_bytes([(bytes([19]), 9.5)]))
    named = resolve_leaves(lexica=lexica, lexicon_name="tiny")
    assert named.name == "TINY" and named.kind == "klv2" and named.value("S") == 9.5
    assert find_leaves("Tiny", lexica) == lexica / "TINY.klv2"
    assert find_leaves("other", lexica) == lexica / "leaves.CSV"
    (lexica / "NWL23.csv").write_text("S,7\n", encoding="utf-8")
    assert find_leaves("NWL2023", lexica) == lexica / "NWL23.csv"


def test_leaves_explicit_path_and_environment(lexica: Path, tmp_path: Path, monkeypatch):
    path = tmp_path / "x.csv"
    path.write_text("Q,-9\n", encoding="utf-8")
    assert resolve_leaves(path=path, lexica=lexica).value("Q") == -9.0
    (lexica / "LEAVES.klv2").write_bytes(klv_bytes([(bytes([17]), -8.0)]))
    monkeypatch.setenv(LEXICA_ENV, str(lexica))
    assert resolve_leaves(lexicon_name="CSW21").value("Q") == -8.0
    assert resolve_leaves().value("Q") == -8.0
    monkeypatch.delenv(LEXICA_ENV)
    assert resolve_leaves().kind == "builtin"
