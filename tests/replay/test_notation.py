"""The move notation (O1 HAN(G)OVER), the study view and the text board that uses them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from support.samples_annotator import GAME
from typer.testing import CliRunner

from gcgtools import parse_string, read_game, replay
from gcgtools.cli import app
from gcgtools.replay.notation import (
    counts_text,
    event_notation,
    study_view,
    unseen_counts_text,
    vowels_text,
)
from gcgtools.rules.tiles import TILE_SETS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _notations(text: str) -> list[str]:
    game = parse_string(text)
    return [event_notation(p.event, p) for p in replay(game) if p.event is not None]


def test_played_through_letters_in_parentheses() -> None:
    assert _notations(GAME) == [
        "8G HEX",
        "I7 O(X)IDES",  # down, through the X of HEX
        "12C MATURe(S)",  # a blank stays lower case, the S of OXIDES is played through
        "exchange UV",
        "13B FEW",
    ]


def test_words_through_board_letters() -> None:
    record = """\
#player1 A A
#player2 B B
>A: CATSXYZ 8F CATS +12 12
>B: ABDEHOR H6 AB.OR +10 10
"""
    assert _notations(record) == ["8F CATS", "H6 AB(T)OR"]
    club = read_game(EXAMPLES / "club-final.gcg")
    shown = {p.number: event_notation(p.event, p) for p in replay(club) if p.event}
    assert shown[8] == "O1 HaN(G)OVEr"  # the bingo of issue 10, as Woogles writes it
    assert shown[13] == "J2 K(N)O(T)TE(R)"  # two separate runs of board letters
    assert shown[18] == "5H (FYTTE)S"  # a hook: the whole word, the old part bracketed
    assert shown[7] == "phony withdrawn"
    assert shown[11] == "challenge bonus"
    assert shown[35] == "opponent's rack (II)"


def test_counts_and_vowels() -> None:
    english = TILE_SETS["english"]
    counts = Counter({"E": 2, "?": 1, "B": 1, "A": 3, "Z": 0})
    assert counts_text(counts) == "A×3 B×1 E×2 ?×1"
    assert vowels_text(counts, english) == "vowels 5, consonants 1, blanks 1"
    assert unseen_counts_text(counts, english) == (
        "A×3 B×1 E×2 ?×1; vowels 5, consonants 1, blanks 1"
    )
    assert counts_text(Counter()) == "none"


def test_study_view_racks_to_move_and_unseen() -> None:
    game = parse_string(GAME)
    positions = list(replay(game))
    start = study_view(game, positions[0])
    # before the first move: Ann to move with the rack of her first turn; unseen from her
    # side is the full bag less her rack
    assert start.to_move == 0 and start.rack == "AEHMRTX"
    assert start.racks == ["AEHMRTX", "ADEIORS"]
    assert start.count == 100 - 7
    after_hex = study_view(game, positions[1])
    assert after_hex.to_move == 1 and after_hex.rack == "ADEIORS" and after_hex.view == 1
    # every player's rack after the event is the rack of their next turn
    assert after_hex.racks == ["AEMRTU?", "ADEIORS"]
    assert after_hex.count == 100 - 3 - 7  # HEX on the board, Bob's rack
    assert after_hex.unseen["X"] == 0 and after_hex.unseen["?"] == 2
    # after the last event no next rack is known: Bob is to move, his rack unknown, and
    # from his side the unseen tiles are those off the board less the AEIRR he kept
    last = study_view(game, positions[-1])
    assert last.racks == [None, None]
    assert last.to_move == 1 and last.rack is None and last.view == 1
    assert last.count == 100 - 17 - 5


def test_board_text_legend_racks_after_and_event_number(tmp_path: Path) -> None:
    src = tmp_path / "g.gcg"
    src.write_text(GAME)
    result = CliRunner().invoke(app, ["board", str(src), "--move", "2"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "= triple word  - double word  \" triple letter  ' double letter" in out
    assert "after event 2 (line 5): Bob I7 O(X)IDES +16, total 16" in out
    # racks after event 2: Ann holds the rack of her next turn, and is to move
    assert "> Ann   26  rack AEMRTU?  (to move)" in out
    assert "  Bob   16  rack AEIRRUV" in out
    assert "unseen 85 (Ann's view): A×8 B×2" in out
    assert "vowels " in out and "consonants " in out
    start = CliRunner().invoke(app, ["board", str(src), "--move", "0"])
    assert start.exit_code == 0 and "before the first event (event 0)" in start.output
    assert "> Ann    0  rack AEHMRTX  (to move)" in start.output


def test_bingo_list_writes_the_played_through_letters() -> None:
    from gcgtools.tables.stats import bingos

    table = bingos([str(EXAMPLES / "club-final.gcg"), str(EXAMPLES / "three-players.gcg")], jobs=1)
    shown = {f"{p} {w}" for p, w in zip(table["position"], table["word"], strict=True)}
    assert "O1 HaN(G)OVEr" in shown  # issue 10's example
    assert "11D (O)RBITERs" in shown and "14A NOISIER" in shown
