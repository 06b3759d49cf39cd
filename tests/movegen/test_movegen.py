"""The move generator against a brute-force enumeration, the seeds' worked scores, the
replay's scorer and real game records.

The brute force (``tests/support/movegen_brute.py``) tries every line, every start and end, every
order of the rack's tiles (a blank as every letter) and checks each word against a plain
set of words; the generator walks a GADDAG. They share no code but the replay's scorer.
"""

from __future__ import annotations

import gzip
import random
from collections import Counter

import pytest
from support.movegen_brute import brute_plays
from support.movegen_cases import (  # noqa: F401
    ENGLISH,
    MAGPIE_README_CGP,
    MINI9,
    SMALL_WORDS,
    STANDARD,
    layout_of,
    small_lexicon,
)
from support.reference_data import DATA, needs_data

from gcgtools.lexicon import Kwg, Lexicon, alphabet_of, build_nodes, builtin_leaves
from gcgtools.movegen import Move, generate_moves
from gcgtools.replay import Board
from gcgtools.replay.scoring import cross_sums, flat_play_score
from gcgtools.rules import BoardLayout, board_layout, tile_set


def word_set(words: list[str], tiles: str = "english") -> set[tuple[str, ...]]:
    ts = tile_set(tiles)
    return {tuple(ts.split(w.upper())) for w in words}


def key(m: Move) -> tuple[bool, int, int, tuple[str, ...], int]:
    return (m.across, m.row, m.col, m.cells, m.new)


def generated(board: Board, rack: list[str], lexicon: Lexicon, **kw: object) -> dict:
    moves = generate_moves(board, rack, lexicon, leaves=None, bag_count=50, **kw)  # type: ignore[arg-type]
    plays = [m for m in moves if m.kind == "play"]
    out = {key(m): m.score for m in plays}
    assert len(out) == len(plays), "a play was generated twice"
    return out


def put(board: Board, m: Move) -> None:
    for r, c, t in m.squares:
        assert board[r, c] is None
        board[r, c] = t


MINI7 = layout_of(
    "Mini7", ["=  '  =", " -   - ", '  "-"  ', "'  -  '", '  "-"  ', " -   - ", "=  '  ="]
)


# ------------------------------------------------------------------------- brute force
@pytest.mark.parametrize("layout", [MINI7, MINI9], ids=lambda lay: lay.name)
@pytest.mark.parametrize("seed", range(4))
def test_generated_plays_equal_brute_force_on_small_boards(layout: BoardLayout, seed: int) -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    words = word_set(SMALL_WORDS)
    alphabet = list(lexicon.kwg.letters[1:])
    rng = random.Random(seed)
    bag = [t for t in ENGLISH.letters for _ in range(ENGLISH.counts[t])]
    rng.shuffle(bag)
    board = Board(layout, ENGLISH)
    checked = 0
    for _turn in range(6):
        rack = [bag.pop() for _ in range(4 if seed % 2 else 5)]
        if seed == 3 and _turn == 1:
            rack[:2] = ["?", "?"]
        expected = brute_plays(board, rack, words, alphabet)
        got = generated(board, rack, lexicon)
        assert got == expected, (seed, _turn, rack)
        checked += len(expected)
        if got:
            best = max(got, key=lambda k: (got[k], k))
            across, row, col, cells, new = best
            put(board, Move("play", row, col, across, cells, new, 0, "", 0.0, 0.0))
    assert checked > 20  # the positions were not trivial


def test_one_tile_plays_are_listed_once() -> None:
    lexicon = small_lexicon(["AT", "TA", "AA"])
    board = Board(MINI7, ENGLISH)
    board[3, 3] = "A"
    board[3, 4] = "T"
    got = generated(board, ["A"], lexicon)
    expected = brute_plays(board, ["A"], word_set(["AT", "TA", "AA"]), ["A", "T"])
    assert got == expected
    # AA across (left of the A) and TA down (above... no: the A goes under the T)
    assert (True, 3, 2, ("A", "A", "T"), 1) not in got  # AAT is no word
    assert (False, 3, 4, ("T", "A"), 0b10) in got  # A under the T: TA down, listed down
    assert (True, 4, 3, ("A",), 1) not in got


@needs_data
@pytest.mark.parametrize("rack", ["EST?", "AEIR", "QUITE", "RT?"])
def test_generated_plays_equal_brute_force_on_a_real_board(rack: str, enable: Lexicon) -> None:
    assert DATA is not None
    words = _enable_words()
    from gcgtools.movegen.cgp import parse_cgp

    pos = parse_cgp(MAGPIE_README_CGP)
    expected = brute_plays(pos.board, list(rack), words, [chr(65 + i) for i in range(26)])
    assert generated(pos.board, list(rack), enable) == expected
    assert len(expected) > 50


def test_multi_letter_tiles_spanish() -> None:
    words = ["CHICO", "LLAMA", "CARRO", "CHE", "OCHO", "HOLA", "LA", "AL", "LO", "OLA", "RR"]
    words = [w for w in words if w != "RR"]
    lexicon = small_lexicon(words, "spanish")
    spanish = tile_set("spanish")
    board = Board(STANDARD, spanish)
    rack = ["CH", "I", "C", "O", "?"]
    got = generated(board, rack, lexicon)
    alphabet = [t for t in lexicon.kwg.letters[1:]]
    expected = brute_plays(board, rack, word_set(words, "spanish"), alphabet)
    assert got == expected
    chico = [k for k in got if k[3] == ("CH", "I", "C", "O")]
    assert chico and all(got[k] > 0 for k in chico)
    # a second turn through the tiles already down, a blank as a two-letter tile
    put(board, Move("play", 7, 6, True, ("CH", "I", "C", "O"), 0b1111, 0, "", 0.0, 0.0))
    rack2 = ["LL", "A", "O", "?"]
    got2 = generated(board, rack2, lexicon)
    expected2 = brute_plays(board, rack2, word_set(words, "spanish"), alphabet)
    assert got2 == expected2
    assert any("ll" in k[3] or "ch" in k[3] for k in got2)  # blanks as CH/LL
    ocho = [k for k in got2 if tuple(t.upper() for t in k[3]) == ("O", "CH", "O")]
    assert ocho  # through the CH on the board (one O a blank)


@pytest.mark.parametrize("layout_name", ["super", "wwf"])
def test_other_boards(layout_name: str) -> None:
    layout = board_layout(layout_name)
    tiles = tile_set("english_super" if layout_name == "super" else "wwf")
    lexicon = small_lexicon(SMALL_WORDS, tiles.name)
    words = word_set(SMALL_WORDS, tiles.name)
    board = Board(layout, tiles)
    rack = ["R", "A", "T", "E", "S"]
    got = generated(board, rack, lexicon)
    bonus = 35 if layout_name == "wwf" else 50
    expected = brute_plays(board, rack, words, list(lexicon.kwg.letters[1:]), bingo_bonus=bonus)
    assert got == expected
    centre = layout.centre
    assert all(
        any(
            (k[1] + (0 if k[0] else i), k[2] + (i if k[0] else 0)) == centre
            for i in range(len(k[3]))
        )
        for k in got
    )
    best = max(got, key=lambda k: (got[k], k))
    put(board, Move("play", best[1], best[2], best[0], best[3], best[4], 0, "", 0.0, 0.0))
    rack2 = ["O", "N", "E", "?"]
    assert generated(board, rack2, lexicon) == brute_plays(
        board, rack2, words, list(lexicon.kwg.letters[1:]), bingo_bonus=bonus
    )


def test_a_dawg_only_lexicon_is_refused() -> None:
    alphabet = alphabet_of("english")
    words = [alphabet.encode(w) for w in ["CAT", "AT"]]
    dawg_only = Lexicon(Kwg(build_nodes([w for w in words if w], gaddag=False), alphabet),
                        name="dawg", source="test")  # fmt: skip
    with pytest.raises(ValueError, match="no GADDAG"):
        generate_moves(Board(STANDARD, ENGLISH), list("CAT"), dawg_only, leaves=None,
                       bag_count=80)  # fmt: skip


# ------------------------------------------------------------------------ seeds' scores
SEED_WORDS = ["QUITE", "MESQUITE", "INFANCY", "QI", "UN", "IF", "TA", "EN", "RECOUNTS", "CAT",
              "CATS"]  # fmt: skip


def _find(moves: list[Move], notation: str) -> Move:
    found = [m for m in moves if m.notation() == notation]
    assert len(found) == 1, (notation, [m.notation() for m in moves[:20]])
    return found[0]


def test_seed_scores_are_generated() -> None:
    """shared/seeds/000: QUITE 8D 48, MES(QUITE) 8A 57, INFaNCY 9D 88, RECO(UN)TS E4 40."""
    lexicon = small_lexicon(SEED_WORDS)
    board = Board(STANDARD, ENGLISH)
    moves = generate_moves(board, list("QUITEXX"), lexicon, leaves=None, bag_count=80)
    quite = _find(moves, "8D QUITE")
    assert quite.score == 48 and quite.tiles == "QUITE" and quite.leave == "XX"
    put(board, quite)
    moves = generate_moves(board, list("MESVVVV"), lexicon, leaves=None, bag_count=70)
    mes = _find(moves, "8A MES(QUITE)")
    assert mes.score == 57 and mes.word == "MESQUITE" and mes.coord == "8A"
    put(board, mes)
    moves = generate_moves(board, list("INFNCY?"), lexicon, leaves=None, bag_count=60)
    infancy = _find(moves, "9D INFaNCY")
    assert infancy.score == 88 and infancy.bingo and infancy.tiles == "INF?NCY"
    put(board, infancy)
    moves = generate_moves(board, list("RECOTSZ"), lexicon, leaves=None, bag_count=50)
    recounts = _find(moves, "E4 RECO(UN)TS")
    assert recounts.score == 40 and recounts.coord == "E4" and not recounts.across
    assert recounts.leave == "Z"


def test_seed_cat_scores() -> None:
    """shared/seeds/003: an opening CAT is 10, with a blank C 4."""
    lexicon = small_lexicon(SEED_WORDS)
    board = Board(STANDARD, ENGLISH)
    moves = generate_moves(board, ["C", "A", "T"], lexicon, leaves=None, bag_count=80)
    assert _find(moves, "8G CAT").score == 10  # A on the centre star
    moves = generate_moves(board, ["?", "A", "T"], lexicon, leaves=None, bag_count=80)
    assert _find(moves, "8G cAT").score == 4


# ------------------------------------------------------------ MAGPIE's known positions
# From MAGPIE's move generator tests (jvc56/MAGPIE, test/movegen_test.c and its CGP
# constants VS_OXY and VS_JEREMY; lexicon NWL20/TWL06 there). ENABLE holds every word these
# checks need, so the same top plays and scores must come out; the numbers of plays differ
# between lexicons and are not compared, except the non-scoring moves (127 exchanges of 7
# distinct tiles and the pass).
VS_OXY = (
    "1PACIFYING5/1IS12/YE13/1REQUALIFIED3/H1L12/EDS12/NO3T9/1RAINWASHING3/UM3O9/T2E1O9/"
    "1WAKEnERS6/1OnETIME7/OOT2E1B7/N6U7/1JACULATING4 / 0/0 0 lex NWL20;"
)
VS_JEREMY = (
    "7N6M/5ZOON4AA/7B5UN/2S4L3LADY/2T4E2QI1I1/2A2PORN3NOR/2BICE2AA1DA1E/6GUVS1OP1F/"
    "8ET1LA1U/5J3R1E1UT/4VOTE1I1R1NE/5G1MICKIES1/6FE1T1THEW/6OR3E1XI/6OY6G / 0/0 0 lex NWL20;"
)


@needs_data
def test_magpie_known_positions(enable: Lexicon) -> None:
    from gcgtools.movegen.cgp import parse_cgp

    oxy = parse_cgp(VS_OXY).board
    moves = generate_moves(oxy, list("ABEOPXZ"), enable, leaves=None, bag_count=50)
    assert moves[0].notation() == "A1 OX(Y)P(HEN)B(UT)AZ(ON)E" and moves[0].score == 1780
    assert moves[0].score == _rescore(oxy, moves[0])
    assert len([m for m in moves if m.kind != "play"]) == 128
    jeremy = parse_cgp(VS_JEREMY).board
    moves = generate_moves(jeremy, list("DDESW??"), enable, leaves=None, bag_count=50)
    assert moves[0].notation() == "14B hEaDW(OR)DS" and moves[0].score == 106
    moves = generate_moves(jeremy, ["V"], enable, leaves=None, bag_count=50)
    assert not [m for m in moves if m.kind == "play"]  # V cannot be played there
    empty = Board(STANDARD, ENGLISH)
    moves = generate_moves(empty, list("DEGORV?"), enable, leaves=None, bag_count=50)
    assert moves[0].score == 80 and moves[0].tiles_played == 7  # MAGPIE: 80, 7 tiles


# ------------------------------------------------------------- every score = the replay's
def _rescore(board: Board, m: Move) -> int:
    trial = board.copy()
    flat = []
    for r, c, t in m.squares:
        trial[r, c] = t
        flat.append(r * board.size + c)
    assert trial.tileset is not None
    return flat_play_score(trial, flat, "across" if m.across else "down", trial.tileset, 7, 50)


@needs_data
def test_every_generated_score_equals_the_replay_scorer(enable: Lexicon) -> None:
    from gcgtools.movegen.cgp import parse_cgp

    pos = parse_cgp(MAGPIE_README_CGP)
    for rack in ["ENOSTXY", "AEINST?", "DDESW??"]:
        moves = generate_moves(pos.board, list(rack), enable, leaves=None, bag_count=20)
        plays = [m for m in moves if m.kind == "play"]
        assert len(plays) > 300
        for m in plays:
            assert m.score == _rescore(pos.board, m), m
            assert m.word.upper() in enable


def test_cross_sums() -> None:
    board = Board(STANDARD, ENGLISH)
    board[7, 7] = "Q"
    board[8, 7] = "i"
    values = ENGLISH.token_values
    across = cross_sums(board, True, values)  # words running down through a square
    assert across[6 * 15 + 7] == 10 and across[9 * 15 + 7] == 10
    assert across[7 * 15 + 8] == -1
    down = cross_sums(board, False, values)
    assert down[7 * 15 + 8] == 10 and down[8 * 15 + 6] == 0 and down[6 * 15 + 7] == -1


# ------------------------------------------------------------- exchanges, pass, equity
def test_exchanges_and_pass() -> None:
    lexicon = small_lexicon(SEED_WORDS)
    board = Board(STANDARD, ENGLISH)
    rack = list("AAB?CCD")
    moves = generate_moves(board, rack, lexicon, leaves=builtin_leaves(), bag_count=20)
    exchanges = [m for m in moves if m.kind == "exchange"]
    # distinct non-empty sub-multisets of A2 B C2 D ?: 3*2*3*2*2 - 1
    assert len(exchanges) == 3 * 2 * 3 * 2 * 2 - 1
    assert len({m.tiles for m in exchanges}) == len(exchanges)
    for m in exchanges:
        assert Counter(m.tiles) + Counter(m.leave) == Counter(rack)
        assert m.equity == m.leave_value and m.score == 0
        assert m.notation() == "-" + m.tiles
    passes = [m for m in moves if m.kind == "pass"]
    assert len(passes) == 1 and passes[0].notation() == "-" and passes[0].leave == "AABCCD?"
    few = generate_moves(board, rack, lexicon, leaves=builtin_leaves(), bag_count=6)
    assert not [m for m in few if m.kind == "exchange"]
    none = generate_moves(board, rack, lexicon, leaves=None, bag_count=20, exchanges=False)
    assert [m.kind for m in none if m.kind != "play"] == ["pass"]
    assert moves == sorted(moves, key=lambda m: -m.equity)


def test_equity_with_leaves_and_in_the_endgame() -> None:
    lexicon = small_lexicon(SEED_WORDS)
    board = Board(STANDARD, ENGLISH)
    leaves = builtin_leaves()
    moves = generate_moves(board, list("CATSQ"), lexicon, leaves=leaves, bag_count=30)
    cats = _find(moves, "8E CATS")
    assert cats.leave == "Q" and cats.leave_value == leaves.value(["Q"])
    assert cats.equity == cats.score + cats.leave_value
    # empty bag: going out earns twice the opponent's rack, else own rack counts against
    end = generate_moves(board, list("CATS"), lexicon, leaves=leaves, bag_count=0,
                         opponent_rack="QZ")  # fmt: skip
    out = _find(end, "8E CATS")
    assert out.equity == out.score + 2 * (10 + 10)
    cat = _find(end, "8F CAT")
    assert cat.leave == "S" and cat.equity == cat.score - 1
    unknown = generate_moves(board, list("CATS"), lexicon, leaves=leaves, bag_count=0)
    assert _find(unknown, "8E CATS").equity == out.score
    assert not [m for m in end if m.kind == "exchange"]
    assert [m for m in end if m.kind == "pass"][0].equity == -(3 + 1 + 1 + 1)


def test_move_fields_and_notation() -> None:
    lexicon = small_lexicon(["HANGOVER", "GO"])
    board = Board(STANDARD, ENGLISH)
    board[3, 14] = "G"  # O4
    moves = generate_moves(board, list("HANOVER"), lexicon, leaves=None, bag_count=10)
    m = _find(moves, "O1 HAN(G)OVER")
    assert (m.kind, m.coord, m.row, m.col, m.across) == ("play", "O1", 0, 14, False)
    assert m.word == "HANGOVER" and m.tiles == "HANOVER" and m.leave == "" and m.bingo
    d = m.to_dict()
    assert d["coord"] == "O1" and d["word"] == "HANGOVER" and d["tiles"] == "HANOVER"
    assert d["kind"] == "play" and d["score"] == m.score


# ----------------------------------------------------------------------- fixtures, data

_WORDS: set[tuple[str, ...]] | None = None


def _enable_words() -> set[tuple[str, ...]]:
    global _WORDS
    if _WORDS is None:
        assert DATA is not None
        with gzip.open(DATA / "wordlists" / "enable2k" / "enable2k.txt.gz", "rt") as fh:
            _WORDS = {tuple(w.strip().upper()) for w in fh if 2 <= len(w.strip()) <= 15}
    return _WORDS


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    from gcgtools.lexicon import load_lexicon

    assert DATA is not None
    return load_lexicon(DATA / "lexica" / "ENABLE.kwg")


def test_position_errors_name_the_input_not_a_command_line_option() -> None:
    """The library says what is wrong with the event number or the rack without naming a
    command's option (``--move``, ``--rack``); it says which input it is (``option``), and
    the moves command puts its option's name there."""
    from pathlib import Path

    from gcgtools.cli.moves import _as_option
    from gcgtools.movegen.record import MovesError, record_moves, record_position
    from gcgtools.sources.load import load_game

    game = load_game(Path(__file__).resolve().parents[2] / "examples" / "club-final.gcg")
    last = len(game.events)
    with pytest.raises(MovesError) as caught:
        record_position(game, last + 1)
    assert caught.value.option == "move" and "--" not in str(caught.value)
    assert str(caught.value) == f"move must be between 0 and {last}"
    assert _as_option(str(caught.value), "move") == f"--move must be between 0 and {last}"
    with pytest.raises(MovesError) as caught:
        record_moves(game, 12, rack="ABCDEFGHIJK")
    assert caught.value.option == "rack" and "--" not in str(caught.value)
    assert str(caught.value).startswith("rack 'ABCDEFGHIJK' has 11 tiles")
    assert _as_option("no rack after event 3; give a rack", "rack") == (
        "no rack after event 3; give --rack"
    )


def test_no_movegen_module_imports_from_the_package_that_imports_it() -> None:
    """gcgtools.movegen's __init__ imports its modules; none of them imports a name from
    the package itself (``from gcgtools.movegen import ...``), which would be a cycle that
    works only in one import order."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "gcgtools" / "movegen"
    offenders = []
    for path in sorted(package.glob("*.py")):
        if path.name == "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "gcgtools.movegen":
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
