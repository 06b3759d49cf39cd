"""Fuzzing the lexicon surfaces: KWG files, KLV/KLV2 leave files, leave CSVs, word lists,
custom tile files, board files and compiled-lexicon cache entries.

Each surface takes a small valid seed, mutates it (truncation, bit flips, inserted bytes,
huge numbers, NaN/inf, wrong counts and sizes, damaged lines), writes it to a temporary
file and runs it through the real loader, then, when the loader accepts it, through one
analysis: the move generator on the empty board with a rack (equities must be finite). A
failure is any exception other than the documented error class of the loader (whose
message must name the file), a non-finite equity, a cache entry that gives other words than
the list holds, or a hang (an input taking more than :data:`HANG_SECONDS`).

``SURFACES`` follows the convention of ``tools/fuzz.py``: name -> function(rng, n) that runs
``n`` inputs and returns how many it ran, raising AssertionError on a failure. Run alone::

    python tools/fuzz_lexicon.py [--surface NAME] [--inputs N] [--seed S]
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import signal
import struct
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gcgtools.lexicon import (  # noqa: E402
    Leaves,
    LeavesError,
    Lexicon,
    LexiconError,
    klv_bytes,
    leaves_csv,
    load_leaves,
    load_lexicon,
)
from gcgtools.lexicon.cache import CACHE_ENV  # noqa: E402
from gcgtools.movegen.generate import generate_moves  # noqa: E402
from gcgtools.replay import Board  # noqa: E402
from gcgtools.rules import BLANK, TILE_SETS, TileSet, board_layout, tile_set  # noqa: E402
from gcgtools.rules.boards import load_board_file  # noqa: E402
from gcgtools.rules.tiles import load_tiles_file  # noqa: E402

HANG_SECONDS = 10.0

WORDS = (
    "AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DE DO ED EF EH EL EM EN "
    "ER ES EX FA GO HA HE HI HM HO ID IF IN IS IT JO KA LA LI LO MA ME MI MO MU MY NA NE NO "
    "NU OD OE OF OH OM ON OP OR OS OW OX OY PA PE PI RE SH SI SO TA TI TO UH UM UN UP US UT "
    "WE WO XI XU YA YE YO CARE CARES RACE RACES ACRE ACRES SCARE QUIZ ZAX JINX RETAINS "
    "STAINER NASTIER ANESTRI RETINAS TOE TOES STONE ONSET NOTES TONES"
).split()
SPANISH_WORDS = "CHICO CHICOS LLAMA PERRO CASA AÑO ÑU HOLA RATA CARRO".split()


class Hang(Exception):
    """An input that took more than HANG_SECONDS."""


@contextmanager
def deadline(seconds: float = HANG_SECONDS) -> Iterator[None]:
    """Raise :class:`Hang` in the block after ``seconds`` (main thread, POSIX only)."""
    usable = hasattr(signal, "setitimer") and _main_thread()
    if not usable:
        yield
        return

    def _alarm(signum: int, frame: object) -> None:
        raise Hang(f"no result after {seconds} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


# -------------------------------------------------------------------- mutations (bytes)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def flip_bits(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if out:
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def insert_bytes(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.randbytes(rng.choice([1, 2, 3, 4, 8, 33])) + data[at:]


def huge_u32(data: bytes, rng: random.Random) -> bytes:
    if len(data) < 4:
        return data + b"\xff\xff\xff\xff"
    at = rng.randrange(0, len(data) - 3) & ~3
    value = rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 0x3FFFFF, 0x400000, 0x800000, 1 << 24])
    return data[:at] + struct.pack("<I", value) + data[at + 4 :]


def non_finite_f32(data: bytes, rng: random.Random) -> bytes:
    if len(data) < 4:
        return data
    at = rng.randrange(len(data) // 4) * 4
    value = rng.choice([math.nan, math.inf, -math.inf, 3.0e38, -1e30])
    return data[:at] + struct.pack("<f", value) + data[at + 4 :]


def wrong_count(data: bytes, rng: random.Random) -> bytes:
    """The KLV's node count or value count off by a little or a lot."""
    if len(data) < 8:
        return data
    (n,) = struct.unpack_from("<I", data, 0)
    at = 0 if rng.random() < 0.5 or 4 + 4 * n + 4 > len(data) else 4 + 4 * n
    (value,) = struct.unpack_from("<I", data, at)
    new = max(0, min(0xFFFFFFFF, value + rng.choice([-2, -1, 1, 2, 1000, 1 << 30])))
    return data[:at] + struct.pack("<I", new) + data[at + 4 :]


def zero_range(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    size = rng.randint(1, 64)
    return data[:at] + bytes(min(size, len(data) - at)) + data[at + size :]


BYTE_MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    truncate, flip_bits, insert_bytes, huge_u32, non_finite_f32, wrong_count, zero_range,
]  # fmt: skip


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 3)):
        data = rng.choice(BYTE_MUTATIONS)(data, rng)
    return data


# --------------------------------------------------------------------- mutations (text)

ODD_FIELDS = ["nan", "NaN", "inf", "-inf", "1e999", "-1e999", "99999999999999999999", "-1",
              "0x10", "²", "５", "", "?", "[CH]", "\x00", "\x1b[2J", "·", "é", "א", "漢",
              "A" * 300, "1" * 40, ",", "#", "|", "=", "~~~~~~~~~~~~~~~~"]  # fmt: skip


def mutate_text(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(7)
        i = rng.randrange(len(lines)) if lines else 0
        if kind == 0 and lines:
            del lines[i]
        elif kind == 1 and lines:
            lines.insert(i, lines[i])
        elif kind == 2 and lines:
            lines[i] = _odd_field(lines[i], rng)
        elif kind == 3:
            lines.insert(i, rng.choice(ODD_FIELDS).encode("utf-8", "surrogatepass"))
        elif kind == 4 and lines:
            lines[i] = lines[i] + rng.choice([b"\xd1", b"\xff\xfe", b"\xc3", b"\r", b"\x00"])
        elif kind == 5:
            lines = lines * rng.choice([2, 10])
        else:
            return mutate_bytes(b"\n".join(lines), rng)
    return b"\n".join(lines)


def _odd_field(line: bytes, rng: random.Random) -> bytes:
    """The line with one field (separated by spaces or commas) replaced by an odd one."""
    sep = b"," if b"," in line else b" "
    fields = line.split(sep)
    fields[rng.randrange(len(fields))] = rng.choice(ODD_FIELDS).encode("utf-8")
    return sep.join(fields)


# ------------------------------------------------------------------------ the analysis


def _rack(tiles: TileSet, rng: random.Random) -> list[str]:
    bag = [t for t in tiles.letters for _ in range(min(tiles.counts[t], 3))]
    return rng.sample(bag, min(7, len(bag)))


def analyse(lexicon: Lexicon, leaves: object, rng: random.Random) -> None:
    """One analysis: the moves of a rack on the empty board; equities must be finite."""
    tiles = lexicon.tiles
    if not lexicon.kwg.has_gaddag:
        return
    board = Board(board_layout("CrosswordGame"), tiles)
    found = generate_moves(board, _rack(tiles, rng), lexicon, leaves=leaves, bag_count=50)
    for move in found:
        if not math.isfinite(move.equity):
            raise AssertionError(f"equity {move.equity} of {move.coord} {move.word}")


def _expect(
    what: str, data: bytes, path: Path, run: Callable[[], None], errors: tuple[type, ...]
) -> None:
    """Run one input; raise AssertionError for anything but a documented error naming
    the file (or a hang)."""
    path.write_bytes(data)
    try:
        with deadline():
            run()
    except errors as exc:
        if path.name not in str(exc):
            raise AssertionError(f"{what}: the message does not name the file: {exc}") from exc
    except Hang as exc:
        raise AssertionError(f"{what}: hang on {len(data)} bytes: {exc}") from None
    except Exception as exc:
        raise AssertionError(f"{what}: {type(exc).__name__}: {exc} on {data[:80]!r}") from exc


@contextmanager
def private_cache() -> Iterator[Path]:
    """A temporary folder, also the cache folder while the block runs."""
    old = os.environ.get(CACHE_ENV)
    with tempfile.TemporaryDirectory(prefix="gcgtools-fuzz-") as folder:
        os.environ[CACHE_ENV] = str(Path(folder) / "cache")
        try:
            yield Path(folder)
        finally:
            if old is None:
                os.environ.pop(CACHE_ENV, None)
            else:
                os.environ[CACHE_ENV] = old


# ---------------------------------------------------------------------------- surfaces

_SEED_LEXICON = Lexicon.from_words(WORDS)


def fuzz_kwg(rng: random.Random, n: int) -> int:
    seed = _SEED_LEXICON.kwg.to_bytes()
    with private_cache() as folder:
        path = folder / "mutant.kwg"
        for _ in range(n):
            data = mutate_bytes(seed, rng)
            _expect("kwg", data, path, lambda: analyse(load_lexicon(path), None, rng),
                    (LexiconError,))  # fmt: skip
    return n


RACK = "AEINRST?"


def _seed_klv() -> bytes:
    """Every leave of one to three tiles of RACK (the analysis' racks), with a value."""
    from itertools import combinations

    index = _SEED_LEXICON.kwg.index
    numbers = [0 if t == BLANK else index[t] for t in RACK]
    rng = random.Random(7)
    table = [(bytes(sorted(c)), rng.uniform(-20, 40))
             for k in (1, 2, 3) for c in combinations(numbers, k)]  # fmt: skip
    return klv_bytes(table)


def analyse_leaves(leaves: Leaves, rng: random.Random) -> None:
    """Every value a leave file lists is finite, and one analysis with it."""
    for key, value in leaves.items():
        if not math.isfinite(value):
            raise AssertionError(f"leave {key!r} accepted with value {value}")
    board = Board(board_layout("CrosswordGame"), _SEED_LEXICON.tiles)
    rack = rng.sample(RACK, 7)
    for move in generate_moves(board, rack, _SEED_LEXICON, leaves=leaves, bag_count=50):
        if not math.isfinite(move.equity):
            raise AssertionError(f"equity {move.equity} of {move.coord} {move.word}")


def fuzz_klv(rng: random.Random, n: int) -> int:
    seed = _seed_klv()
    with private_cache() as folder:
        for i in range(n):
            path = folder / ("mutant.klv2" if i % 3 else "mutant.klv")
            data = mutate_bytes(seed, rng)
            _expect("klv", data, path,
                    lambda p=path: analyse_leaves(load_leaves(p), rng),
                    (LeavesError,))  # fmt: skip
    return n


def fuzz_leaves_csv(rng: random.Random, n: int) -> int:
    seed = leaves_csv(load_leaves_from_bytes(_seed_klv())).encode("utf-8")
    with private_cache() as folder:
        path = folder / "mutant.csv"
        for _ in range(n):
            data = mutate_text(seed, rng)
            _expect("leaves_csv", data, path,
                    lambda: analyse_leaves(load_leaves(path), rng),
                    (LeavesError,))  # fmt: skip
    return n


def load_leaves_from_bytes(data: bytes) -> Leaves:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "seed.klv2"
        path.write_bytes(data)
        return load_leaves(path)


def fuzz_wordlist(rng: random.Random, n: int) -> int:
    english = "\n".join(WORDS).encode("utf-8")
    spanish = "\n".join(SPANISH_WORDS).encode("utf-8")
    with private_cache() as folder:
        for i in range(n):
            tiles = "spanish" if i % 4 == 3 else "english"
            data = mutate_text(spanish if tiles == "spanish" else english, rng)
            if i % 5 == 4:
                data = gzip.compress(data) if rng.random() < 0.5 else mutate_bytes(
                    gzip.compress(data), rng)  # fmt: skip
            path = folder / ("mutant.txt.gz" if i % 5 == 4 else "mutant.txt")
            _expect("wordlist", data, path,
                    lambda p=path, t=tiles: analyse(load_lexicon(p, t, use_cache=False),
                                                     None, rng),
                    (LexiconError,))  # fmt: skip
    return n


def _tiles_text(tiles: TileSet) -> bytes:
    rows = [f"{t} {tiles.counts[t]} {tiles.values[t]}" for t in tiles.letters]
    return ("\n".join(rows) + "\n").encode("utf-8")


def _analyse_tiles(path: Path, rng: random.Random) -> None:
    """Load a tile file; play a rack of its letters (no blank) with words of them: no move
    may use a blank it does not have."""
    tiles = load_tiles_file(path)
    letters = [t for t in tiles.letters if t != BLANK]
    if not letters:
        return
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 4))) for _ in range(30)]
    lexicon = Lexicon.from_words(words, tiles)
    if not len(lexicon):
        return
    board = Board(board_layout("CrosswordGame"), tiles)
    rack = [rng.choice(letters) for _ in range(7)]
    for move in generate_moves(board, rack, lexicon, leaves=None, bag_count=50):
        if BLANK in move.tiles or not math.isfinite(move.equity):
            raise AssertionError(f"{move.coord} {move.word} uses {move.tiles!r} of {rack}")


def many_letters(data: bytes, rng: random.Random) -> bytes:
    """Rows of many new letters: caseless (CJK, Hebrew) or not, up to 300 of them."""
    start = rng.choice([0x4E00, 0x05D0, 0x0410, 0x00C0])
    count = rng.choice([5, 20, 199, 200, 255, 256, 300])
    rows = [f"{chr(start + i)} 1 1" for i in range(count)]
    return data + ("\n".join(rows) + "\n").encode("utf-8")


def fuzz_tiles(rng: random.Random, n: int) -> int:
    seeds = [_tiles_text(TILE_SETS[name]) for name in ("english", "spanish", "catalan")]
    hebrew = "".join(f"{chr(0x05D0 + i)} 4 {i % 5 + 1}\n" for i in range(22)).encode("utf-8")
    seeds.append(b"? 2 0\n" + hebrew)
    with private_cache() as folder:
        path = folder / "mutant.tiles"
        for i in range(n):
            data = rng.choice(seeds)
            data = many_letters(data, rng) if i % 4 == 0 else mutate_text(data, rng)
            _expect("tiles", data, path, lambda: _analyse_tiles(path, rng),
                    (ValueError, OSError))  # fmt: skip
    return n


def _board_text(name: str) -> bytes:
    layout = board_layout(name)
    return ("\n".join(f"|{row}|" for row in layout.rows) + "\n").encode("utf-8")


def _analyse_board(path: Path, rng: random.Random) -> None:
    layout = load_board_file(path)
    board = Board(layout, tile_set("english"))
    rack = _rack(tile_set("english"), rng)
    for move in generate_moves(board, rack, _SEED_LEXICON, leaves=None, bag_count=50):
        if not math.isfinite(move.equity):
            raise AssertionError(f"equity {move.equity}")


def fuzz_board(rng: random.Random, n: int) -> int:
    seeds = [_board_text(name) for name in ("CrosswordGame", "SuperCrosswordGame")]
    with private_cache() as folder:
        path = folder / "mutant.board"
        for _ in range(n):
            data = mutate_text(rng.choice(seeds), rng)
            _expect("board", data, path, lambda: _analyse_board(path, rng),
                    (ValueError, OSError))  # fmt: skip
    return n


JSON_ODD: list[object] = [None, True, -1, 0, 1e999, 10**30, "x", [], {}, {"letters": "x"},
                          {"letters": 1e999}, [None], 4, 5.0, "NaN"]  # fmt: skip


def _mutate_meta(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.3:
        return mutate_bytes(data, rng)
    meta = json.loads(data)
    key = rng.choice([*meta, "extra"])
    meta[key] = rng.choice(JSON_ODD)
    return json.dumps(meta).encode("utf-8").replace(b"Infinity", b"1e999")


def fuzz_lexicon_cache(rng: random.Random, n: int) -> int:
    """A compiled entry with its .json or .kwg damaged must still give the list's words."""
    with private_cache() as folder:
        words = folder / "list.txt"
        words.write_text("\n".join(WORDS), encoding="utf-8")
        expected = list(load_lexicon(words).words())
        lexica = Path(os.environ[CACHE_ENV]) / "lexica"
        (meta_path,) = lexica.glob("*.json")
        kwg_path = meta_path.with_suffix(".kwg")
        good_meta, good_kwg = meta_path.read_bytes(), kwg_path.read_bytes()
        for _ in range(n):
            meta_path.write_bytes(_mutate_meta(good_meta, rng) if rng.random() < 0.6 else good_meta)
            kwg_path.write_bytes(mutate_bytes(good_kwg, rng) if rng.random() < 0.5 else good_kwg)
            try:
                with deadline():
                    got = load_lexicon(words)
            except Hang:
                raise AssertionError("lexicon_cache: hang") from None
            except Exception as exc:
                raise AssertionError(f"lexicon_cache: {type(exc).__name__}: {exc}") from exc
            if list(got.words()) != expected or len(got) != len(expected):
                raise AssertionError("lexicon_cache: a damaged entry gave other words")
    return n


SURFACES: dict[str, Callable[[random.Random, int], int]] = {
    "kwg": fuzz_kwg,
    "klv": fuzz_klv,
    "leaves_csv": fuzz_leaves_csv,
    "wordlist": fuzz_wordlist,
    "tiles": fuzz_tiles,
    "board": fuzz_board,
    "lexicon_cache": fuzz_lexicon_cache,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--surface", choices=sorted(SURFACES), action="append")
    parser.add_argument("--inputs", type=int, default=1000, help="inputs per surface")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total = 0
    for name in args.surface or list(SURFACES):
        start = time.monotonic()
        ran = SURFACES[name](random.Random(f"{args.seed}:{name}"), args.inputs)
        total += ran
        print(f"{name}: {ran} inputs, 0 failures, {time.monotonic() - start:.1f} s")
    print(f"total: {total} inputs, 0 failures")


if __name__ == "__main__":
    main()
