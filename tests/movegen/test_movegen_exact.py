"""The C helper's best-move search without a walk (``find_moves`` looking plays up in the
word index, see ``_gaddag.c``) gives exactly the first moves of the full generation:
the same plays in the same order, ties in equity included, for racks with no, one and two
blanks; and its word index holds every word, and is refused when damaged."""

from __future__ import annotations

import random
import struct
from types import ModuleType

import pytest
from support.movegen_cases import MINI9, SMALL_WORDS, small_lexicon
from support.reference_data import DATA, needs_data
from test_movegen_native import compiled_helper, facts, refuses

from gcgtools.lexicon import load_leaves, load_lexicon
from gcgtools.movegen import EngineBoard, MoveKind
from gcgtools.replay import Board
from gcgtools.rules import board_layout, tile_set

WI_HEAD, WF_WORDS, MASK = 3, 1 << 15, (1 << 64) - 1


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return compiled_helper(tmp_path_factory)


def letter_hash(letter: int) -> int:
    """The C helper's letter_hash (splitmix64 of letter + 1)."""
    z = ((letter + 1) * 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def index_words(index: bytes) -> dict[tuple[int, ...], int]:
    """Every word the word index holds (its letters as KWG indices) and its slot's key."""
    slots, _magic, n_letters = struct.unpack_from("<QQQ", index)
    start = 8 * (WI_HEAD + 2 * slots + WF_WORDS)
    letters = index[start : start + n_letters]
    out: dict[tuple[int, ...], int] = {}
    for i in range(slots):
        key, ref = struct.unpack_from("<QQ", index, 8 * (WI_HEAD + 2 * i))
        if key:
            first, size, count = ref >> 24, (ref >> 16) & 0xFF, ref & 0xFFFF
            for c in range(count):
                out[tuple(letters[first + c * size : first + (c + 1) * size])] = key
    return out


def test_word_index_holds_every_word_under_its_letter_set(native: ModuleType) -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    engine = EngineBoard(Board(MINI9, tile_set("english")), lexicon, native=native)
    index = native.word_index(engine._nodes, lexicon.kwg.dawg_root)
    held = index_words(index)
    code = {t: i for i, t in enumerate(engine._uppers)}
    expected = {tuple(code[c] for c in w) for w in SMALL_WORDS}
    assert set(held) == expected
    for word, key in held.items():
        assert key == (sum(letter_hash(t) for t in word) & MASK or 1)


def _position(native: ModuleType) -> tuple[EngineBoard, ModuleType]:
    """A small board with a word on it (the search without a walk needs board tiles)."""
    lexicon = small_lexicon(SMALL_WORDS)
    engine = EngineBoard(Board(MINI9, tile_set("english")), lexicon, native=native)
    first = engine.best_move(list("RATESQO"), leaves=None, bag_count=50)
    assert first is not None and first.kind == MoveKind.PLAY
    engine.play(first)
    return engine, native


def test_native_refuses_a_damaged_word_index(native: ModuleType) -> None:
    """The word index is the C helper's own bytes; one that is not (too short, a slot
    count that is no power of two or beyond the buffer, another magic number, letters
    beyond the buffer, a slot pointing past the letters) is refused with ValueError,
    never read out of bounds; a table without an empty slot ends its probes."""
    engine, native = _position(native)
    good = native.word_index(engine._nodes, engine.kwg.dawg_root)
    slots, magic, n_letters = struct.unpack_from("<QQQ", good)
    head = struct.Struct("<QQQ")
    bad_slots = bytearray(good)
    for i in range(slots):
        key, ref = struct.unpack_from("<QQ", good, 8 * (WI_HEAD + 2 * i))
        if key:
            struct.pack_into("<QQ", bad_slots, 8 * (WI_HEAD + 2 * i), key, ref | (1 << 60))
    damaged = [
        good[:16],
        head.pack(3, magic, n_letters) + good[24:],
        head.pack(1 << 62, magic, n_letters) + good[24:],
        head.pack(slots, magic + 1, n_letters) + good[24:],
        head.pack(slots, magic, 1 << 40) + good[24:],
        good[: len(good) // 2],
        bytes(bad_slots),
    ]
    refuses(native, engine, "words", damaged, good, "words")
    full = bytearray(good)
    for i in range(slots):  # every slot taken by a key no letter set has: no hang
        struct.pack_into("<QQ", full, 8 * (WI_HEAD + 2 * i), 0xFFFF_FFFF_FFFF_FFF1, 2 << 16)
    refuses(native, engine, "words", [], bytes(full), "words")


def _racks(rng: random.Random, bag: list[str], turn: int) -> list[str]:
    """A rack from the bag; every third turn with one blank, every fifth with two (the
    blanks taken from the bag when it still has them)."""
    want = 2 if turn % 5 == 4 else 1 if turn % 3 == 2 else 0
    rack = [bag.pop(bag.index("?")) for _ in range(min(want, bag.count("?")))]
    while len(rack) < 7 and bag:
        tile = bag.pop()
        if tile == "?" and want == 0:
            bag.insert(0, tile)
            continue
        rack.append(tile)
    rng.shuffle(rack)
    return rack


@needs_data
def test_top_moves_are_the_first_of_all_moves_in_real_games(native: ModuleType) -> None:
    """Self-played games on the standard board with ENABLE: at every turn, for leave
    values from a KLV and none (scores only: many ties), the top 1, 4 and 12 moves equal
    the first of all the moves, move for move; racks with one and two blanks included,
    and positions whose best moves tie."""
    assert DATA is not None
    enable = load_lexicon(DATA / "lexica" / "ENABLE.kwg")
    klv = load_leaves(DATA / "lexica" / "CSW21.klv2")
    english = tile_set("english")
    rng = random.Random(5)
    seen = {"blanks": set(), "ties": 0, "positions": 0}
    for _game in range(3):
        engine = EngineBoard(Board(board_layout("standard"), english), enable, native=native)
        bag = [t for t in english.letters for _ in range(english.counts[t])]
        rng.shuffle(bag)
        for turn in range(14):
            if len(bag) < 10:
                break
            rack = _racks(rng, bag, turn)
            seen["blanks"].add(rack.count("?"))
            for leaves in (klv, None):
                every = engine.moves(rack, leaves=leaves, bag_count=len(bag))
                seen["positions"] += 1
                seen["ties"] += len(every) > 1 and every[0].equity == every[1].equity
                for top in (1, 4, 12):
                    got = engine.moves(rack, leaves=leaves, bag_count=len(bag), top=top)
                    assert facts(got) == facts(every[:top]), (rack, top, leaves)
            best = engine.best_move(rack, leaves=klv, bag_count=len(bag))
            back = rack
            if best is not None and best.kind == MoveKind.PLAY:
                engine.play(best)
                back = list(best.leave)
            for tile in back:  # what is left goes back, to be drawn again
                bag.insert(rng.randrange(len(bag) + 1), tile)
    assert seen["blanks"] == {0, 1, 2}
    assert seen["ties"] >= 5 and seen["positions"] > 50
