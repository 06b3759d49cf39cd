"""Generate the example records in ``examples/`` by deterministic Scrabble self-play.

Every example game shipped with gcgtools was written by this script (none is copied or adapted
from a real game record). Run it from the repository root::

    python tools/make_examples.py [--wordlist PATH] [--out examples] [--check]

How the games are made
----------------------
* Word list: ENABLE2K (public domain), read at generation time from
  ``/work/shared/data/wordlists/enable2k/enable2k.txt.gz`` (``--wordlist`` to change it); it
  is not copied into the repository. The German game uses a dozen hand-picked words only.
* Each game has a fixed seed: the bag is shuffled with ``random.Random(seed)`` and every
  random choice uses that generator, so the output is the same on every run.
* Move generation is simple and slow on purpose: for every row and column and every span of
  squares that touches the tiles on the board (or covers the centre on the first move), the
  words of the span's length that agree with the letters already there are filtered by the
  rack (blanks included) and by the cross-words; every cross-word must be in the word list.
* The player keeps the best-valued play (score plus a crude leave value), now and then one of
  the next best; exchanges when the best play is poor and the bag holds 7 or more tiles,
  passes when nothing fits. The games are played to the end: someone goes out, or six
  scoreless turns in a row end it.
* Scores are computed here with this file's own tables and code (premium squares, tile
  values, cross-words, bingo bonus), *not* with gcgtools, so that ``gcgtools validate
  examples/`` is an independent check of both. ``--check`` runs that validation at the end.

The output is modern canonical GCG: ``#character-encoding UTF-8`` first, sorted racks (blank
last), ``.`` for played-through squares, ``+N`` scores and cumulative totals. The
``dialects.gcg`` example re-writes the first moves of a generated game in the tolerated old
dialects, and ``with-errors/wrong-scores.gcg`` is ``club-final.gcg`` with three deliberate
mistakes.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

WORDLIST = Path("/work/shared/data/wordlists/enable2k/enable2k.txt.gz")
SIZE = 15
CENTRE = (7, 7)
RACK_SIZE = 7
BINGO_BONUS = 50
MAX_SCORELESS = 6
BLANK = "?"

# ---------------------------------------------------------------------------------- rules
# The standard 15x15 board, written out by hand: T triple word, D double word, t triple
# letter, d double letter. Rows 1-15 from the top, columns A-O from the left.
BOARD_ROWS = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
LETTER_MULT = {"d": 2, "t": 3}
WORD_MULT = {"D": 2, "T": 3}

# Tile tables (letter: count, value), written by hand from the published distributions.
ENGLISH = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (4, 2), "E": (12, 1), "F": (2, 4),
    "G": (3, 2), "H": (2, 4), "I": (9, 1), "J": (1, 8), "K": (1, 5), "L": (4, 1),
    "M": (2, 3), "N": (6, 1), "O": (8, 1), "P": (2, 3), "Q": (1, 10), "R": (6, 1),
    "S": (4, 1), "T": (6, 1), "U": (4, 1), "V": (2, 4), "W": (2, 4), "X": (1, 8),
    "Y": (2, 4), "Z": (1, 10), BLANK: (2, 0),
}  # fmt: skip
GERMAN = {
    "A": (5, 1), "Ä": (1, 6), "B": (2, 3), "C": (2, 4), "D": (4, 1), "E": (15, 1),
    "F": (2, 4), "G": (3, 2), "H": (4, 2), "I": (6, 1), "J": (1, 6), "K": (2, 4),
    "L": (3, 2), "M": (4, 3), "N": (9, 1), "O": (3, 2), "Ö": (1, 8), "P": (1, 4),
    "Q": (1, 10), "R": (6, 1), "S": (7, 1), "T": (6, 1), "U": (6, 1), "Ü": (1, 6),
    "V": (1, 6), "W": (1, 3), "X": (1, 8), "Y": (1, 10), "Z": (1, 3), BLANK: (2, 0),
}  # fmt: skip

# A crude value of the tiles kept, added to the score when choosing a play.
LEAVE_VALUE = {BLANK: 20, "S": 7, "E": 3, "R": 2, "A": 1, "N": 1, "T": 1, "L": 1, "I": 0}
LEAVE_VALUE_BAD = {"Q": -7, "V": -5, "J": -3, "X": 2, "Z": 2, "W": -3, "U": -3}


def tile_value(values: dict[str, int], tile: str) -> int:
    """Points of a placed tile: upper case is a real tile, lower case a blank (0)."""
    return 0 if tile != tile.upper() or tile == BLANK else values[tile]


def column_letter(col: int) -> str:
    return "ABCDEFGHIJKLMNO"[col]


def coordinate(row: int, col: int, direction: str) -> str:
    """GCG coordinate: row first for across (8H), column first for down (H8)."""
    if direction == "across":
        return f"{row + 1}{column_letter(col)}"
    return f"{column_letter(col)}{row + 1}"


# ---------------------------------------------------------------------------------- lexicon
class Lexicon:
    """A word list with a letter matrix for quick filtering by length and fixed letters."""

    def __init__(self, words: Iterable[str], alphabet: str) -> None:
        self.alphabet = alphabet
        self.code = {ch: i + 1 for i, ch in enumerate(alphabet)}
        self.words = sorted({w for w in words if 2 <= len(w) <= SIZE and set(w) <= set(alphabet)})
        self.wordset = frozenset(self.words)
        n = len(self.words)
        self.letters = np.zeros((n, SIZE), dtype=np.uint8)
        self.counts = np.zeros((n, len(alphabet) + 1), dtype=np.int16)
        self.length = np.zeros(n, dtype=np.uint8)
        for i, w in enumerate(self.words):
            codes = [self.code[ch] for ch in w]
            self.letters[i, : len(w)] = codes
            np.add.at(self.counts[i], codes, 1)
            self.length[i] = len(w)
        self.by_len = {k: np.flatnonzero(self.length == k) for k in range(2, SIZE + 1)}
        self.index: dict[tuple[int, int, int], np.ndarray] = {}
        for k, ids in self.by_len.items():
            for pos in range(k):
                col = self.letters[ids, pos]
                for code in np.unique(col):
                    self.index[(k, pos, int(code))] = ids[col == code]

    @classmethod
    def from_file(cls, path: Path) -> Lexicon:
        with gzip.open(path, "rt", encoding="ascii") as fh:
            return cls((line.strip().upper() for line in fh), "ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    def __contains__(self, word: str) -> bool:
        return word.upper() in self.wordset


# ---------------------------------------------------------------------------------- moves
@dataclass
class Move:
    """A play: start square, direction, the whole word and the tiles it puts down."""

    row: int
    col: int
    direction: str
    word: str  # one character per square; upper case real tile, lower case blank
    placed: list[tuple[int, int, str]]
    score: int = 0
    words: list[str] = field(default_factory=list)

    def gcg_word(self, board: Board, *, full: bool = False) -> str:
        """The word as GCG writes it: '.' for occupied squares (or the letter if ``full``)."""
        new = {(r, c) for r, c, _ in self.placed}
        out = []
        dr, dc = (0, 1) if self.direction == "across" else (1, 0)
        for i, ch in enumerate(self.word):
            square = (self.row + i * dr, self.col + i * dc)
            out.append(ch if square in new else (board.grid[square[0]][square[1]] if full else "."))
        return "".join(out)

    def tiles_used(self) -> list[str]:
        return [BLANK if t != t.upper() else t for _, _, t in self.placed]


class Board:
    """A 15x15 grid of tiles (None for an empty square)."""

    def __init__(self) -> None:
        self.grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]

    def copy(self) -> Board:
        other = Board()
        other.grid = [row.copy() for row in self.grid]
        return other

    def get(self, r: int, c: int) -> str | None:
        if 0 <= r < SIZE and 0 <= c < SIZE:
            return self.grid[r][c]
        return None

    def empty(self) -> bool:
        return all(t is None for row in self.grid for t in row)

    def put(self, move: Move) -> None:
        for r, c, t in move.placed:
            assert self.grid[r][c] is None
            self.grid[r][c] = t

    def take_back(self, move: Move) -> None:
        for r, c, _ in move.placed:
            self.grid[r][c] = None


def run_through(
    board: Board, new: dict[tuple[int, int], str], r: int, c: int, dr: int, dc: int
) -> list[tuple[int, int, str]]:
    """The contiguous run of tiles (on the board or new) through (r, c) along (dr, dc)."""

    def at(rr: int, cc: int) -> str | None:
        return new.get((rr, cc)) or board.get(rr, cc)

    while at(r - dr, c - dc) is not None:
        r, c = r - dr, c - dc
    run = []
    while (t := at(r, c)) is not None:
        run.append((r, c, t))
        r, c = r + dr, c + dc
    return run


def score_move(board: Board, move: Move, values: dict[str, int]) -> tuple[int, list[str]]:
    """Score a play with this file's own rules: premiums count for new tiles only."""
    new = {(r, c): t for r, c, t in move.placed}
    dr, dc = (0, 1) if move.direction == "across" else (1, 0)

    def word_score(run: list[tuple[int, int, str]]) -> int:
        total, mult = 0, 1
        for r, c, t in run:
            v = tile_value(values, t)
            if (r, c) in new:
                sq = BOARD_ROWS[r][c]
                v *= LETTER_MULT.get(sq, 1)
                mult *= WORD_MULT.get(sq, 1)
            total += v
        return total * mult

    score, words = 0, []
    r0, c0, _ = move.placed[0]
    runs = [run_through(board, new, r0, c0, dr, dc)]
    runs += [run_through(board, new, r, c, dc, dr) for r, c, _ in move.placed]
    for run in runs:
        if len(run) >= 2:
            score += word_score(run)
            words.append("".join(t for _, _, t in run))
    if len(move.placed) == RACK_SIZE:
        score += BINGO_BONUS
    return score, words


class MoveFinder:
    """Every legal play of a rack on a board (all words formed are in the lexicon)."""

    def __init__(self, lexicon: Lexicon, values: dict[str, int]) -> None:
        self.lex = lexicon
        self.values = values

    def cross_allowed(self, board: Board, r: int, c: int, direction: str) -> set[str] | None:
        """Letters that may go on empty (r, c) for a play in ``direction``; None: any."""
        dr, dc = (1, 0) if direction == "across" else (0, 1)  # perpendicular
        before, after = [], []
        rr, cc = r - dr, c - dc
        while (t := board.get(rr, cc)) is not None:
            before.append(t.upper())
            rr, cc = rr - dr, cc - dc
        rr, cc = r + dr, c + dc
        while (t := board.get(rr, cc)) is not None:
            after.append(t.upper())
            rr, cc = rr + dr, cc + dc
        if not before and not after:
            return None
        head, tail = "".join(reversed(before)), "".join(after)
        return {ch for ch in self.lex.alphabet if head + ch + tail in self.lex.wordset}

    def moves(self, board: Board, rack: Sequence[str]) -> list[Move]:
        lex = self.lex
        rack_counts = Counter(rack)
        blanks = rack_counts.pop(BLANK, 0)
        vec = np.zeros(len(lex.alphabet) + 1, dtype=np.int16)
        for ch, k in rack_counts.items():
            vec[lex.code[ch]] = k
        deficit = np.maximum(lex.counts - vec, 0).sum(axis=1) - blanks
        first = board.empty()
        found: dict[frozenset[tuple[int, int, str]], Move] = {}
        for direction in ("across", "down"):
            cross: dict[tuple[int, int], set[str] | None] = {}
            for line in range(SIZE):

                def square(i: int, line: int = line, direction: str = direction) -> tuple[int, int]:
                    return (line, i) if direction == "across" else (i, line)

                cells = [board.get(*square(i)) for i in range(SIZE)]
                for s in range(SIZE):
                    if s > 0 and cells[s - 1] is not None:
                        continue
                    empties = 0
                    touches = False
                    for e in range(s, SIZE):
                        if cells[e] is None:
                            empties += 1
                            if empties > len(rack):
                                break
                            sq = square(e)
                            if sq not in cross:
                                cross[sq] = self.cross_allowed(board, *sq, direction)
                            if cross[sq] is not None:
                                touches = True
                        else:
                            touches = True
                        if e == s or (e + 1 < SIZE and cells[e + 1] is not None):
                            continue
                        if empties == 0:
                            continue
                        if first:
                            if not (line == CENTRE[0] and s <= CENTRE[1] <= e):
                                continue
                        elif not touches:
                            continue
                        self._slot(
                            board,
                            rack,
                            blanks,
                            deficit,
                            direction,
                            square,
                            s,
                            e,
                            cells,
                            cross,
                            found,
                        )
        return list(found.values())

    def _slot(  # noqa: PLR0913
        self,
        board: Board,
        rack: Sequence[str],
        blanks: int,
        deficit: np.ndarray,
        direction: str,
        square: Callable[[int], tuple[int, int]],
        s: int,
        e: int,
        cells: list[str | None],
        cross: dict[tuple[int, int], set[str] | None],
        found: dict[frozenset[tuple[int, int, str]], Move],
    ) -> None:
        """Every word that fills squares s..e of a line exactly, with the rack."""
        lex = self.lex
        length = e - s + 1
        fixed = [(i - s, cells[i].upper()) for i in range(s, e + 1) if cells[i] is not None]
        free = [i - s for i in range(s, e + 1) if cells[i] is None]
        if fixed:
            arrays = [lex.index.get((length, i, lex.code[ch])) for i, ch in fixed]
            if any(a is None for a in arrays):
                return
            best = min(range(len(fixed)), key=lambda j: len(arrays[j]))
            ids = arrays[best]
            for j, (i, ch) in enumerate(fixed):
                if j != best:
                    ids = ids[lex.letters[ids, i] == lex.code[ch]]
        else:
            ids = lex.by_len[length]
        ids = ids[deficit[ids] <= len(fixed)]
        for i in free:
            allowed = cross[square(s + i)]
            if allowed is not None:
                codes = [lex.code[ch] for ch in allowed]
                ids = ids[np.isin(lex.letters[ids, i], codes)]
            if not len(ids):
                return
        r0, c0 = square(s)
        for wid in ids:
            word = lex.words[wid]
            placed = self._assign(word, free, rack, blanks, [square(s + i) for i in free])
            if placed is None:
                continue
            key = frozenset(placed)
            if key in found:
                continue
            full = list(word)
            for (_, _, t), i in zip(placed, free, strict=True):
                full[i] = t
            move = Move(r0, c0, direction, "".join(full), placed)
            move.score, move.words = score_move(board, move, self.values)
            found[key] = move

    def _assign(
        self,
        word: str,
        free: list[int],
        rack: Sequence[str],
        blanks: int,
        squares: list[tuple[int, int]],
    ) -> list[tuple[int, int, str]] | None:
        """Tiles for the free squares: real tiles first (on the best squares), then blanks."""
        need = [word[i] for i in free]
        have = Counter(t for t in rack if t != BLANK)
        short = Counter(need) - have
        if sum(short.values()) > blanks:
            return None
        tiles = list(need)
        for ch, k in short.items():
            spots = [j for j, x in enumerate(need) if x == ch]
            # the blank goes where the letter is worth least: no letter premium first
            spots.sort(
                key=lambda j: (LETTER_MULT.get(BOARD_ROWS[squares[j][0]][squares[j][1]], 1), j)
            )
            for j in spots[:k]:
                tiles[j] = ch.lower()
        return [(r, c, t) for (r, c), t in zip(squares, tiles, strict=True)]


# ---------------------------------------------------------------------------------- games
@dataclass
class Event:
    """One line of the record (plus its notes)."""

    nick: str
    kind: str  # play, pass, exchange, withdrawn, challenge, endpoints, penalty
    rack: str = ""
    move: Move | None = None
    word: str = ""  # GCG word with '.' for played-through squares
    full_word: str = ""  # the same with the letters written out
    tiles: str = ""  # exchanged tiles / end-rack tiles
    score: int = 0
    cumulative: int = 0
    notes: list[str] = field(default_factory=list)
    cross: list[str] = field(default_factory=list)


def sort_rack(tiles: Iterable[str]) -> str:
    return "".join(sorted(tiles, key=lambda t: (t == BLANK, t)))


@dataclass
class Config:
    """What a generated game should look like."""

    seed: int
    players: list[tuple[str, str]]
    tiles: dict[str, tuple[int, int]] = field(default_factory=lambda: ENGLISH)
    end_rule: str = "standard"  # or "international"
    phony_turn: int | None = None  # turn at which the mover tries a phony (withdrawn)
    challenge_turn: int | None = None  # the play at this turn is challenged, stays, +5
    pass_turn: int | None = None  # the mover passes at this turn
    exchange_below: int = 10  # exchange if the best play is worth less (bag >= 7)
    scoreless_after: int | None = None  # from this turn on, only exchanges and passes
    stop_after: int | None = None  # stop the record after this many turns (incomplete)
    randomness: float = 0.25  # chance of not taking the best-valued play


class Game:
    """Self-play of one game; ``events`` is the record."""

    def __init__(self, cfg: Config, lexicon: Lexicon) -> None:
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.values = {t: v for t, (_, v) in cfg.tiles.items()}
        self.finder = MoveFinder(lexicon, self.values)
        self.lex = lexicon
        self.board = Board()
        self.bag = [t for t, (k, _) in cfg.tiles.items() for _ in range(k)]
        self.rng.shuffle(self.bag)
        self.nicks = [nick for nick, _ in cfg.players]
        self.racks = [self.draw([], RACK_SIZE) for _ in self.nicks]
        self.totals = [0] * len(self.nicks)
        self.events: list[Event] = []
        self.turn = 0
        self.scoreless = 0
        self.out: int | None = None
        self.end_reason: str | None = None
        self.boards: list[Board] = []  # board before each play event, for rendering

    def draw(self, rack: list[str], n: int) -> list[str]:
        for _ in range(min(n, len(self.bag))):
            rack.append(self.bag.pop())
        return rack

    def value_of(self, move: Move, rack: list[str]) -> float:
        leave = Counter(rack)
        leave.subtract(move.tiles_used())
        leave = +leave
        value = float(move.score)
        if self.bag:
            for t, k in leave.items():
                value += LEAVE_VALUE.get(t, 0) + LEAVE_VALUE_BAD.get(t, 0)
                value -= 4 * (k - 1)
            if BLANK in move.tiles_used() and move.score < 50:
                value -= 15
        return value

    def add(self, p: int, ev: Event) -> Event:
        self.events.append(ev)
        return ev

    def play(self) -> Game:
        cfg = self.cfg
        n = len(self.nicks)
        p = 0
        while True:
            if cfg.stop_after is not None and self.turn >= cfg.stop_after:
                self.end_reason = "incomplete"
                break
            self.take_turn(p)
            self.turn += 1
            if self.out is not None:
                self.end_reason = "out"
                break
            if self.scoreless >= MAX_SCORELESS:
                self.end_reason = "scoreless"
                break
            p = (p + 1) % n
        self.finish()
        return self

    def take_turn(self, p: int) -> None:
        cfg = self.cfg
        rack = self.racks[p]
        nick = self.nicks[p]
        rack_text = sort_rack(rack)
        if cfg.scoreless_after is not None and self.turn >= cfg.scoreless_after:
            already = any(ev.nick == nick and ev.kind == "exchange" for ev in self.events)
            if len(self.bag) >= RACK_SIZE and not already:
                self.exchange(p, sorted(rack, key=lambda t: (t == BLANK, t))[:3])
            else:
                self.pass_(p)
            return
        if self.turn == cfg.pass_turn:
            self.pass_(p)
            return
        moves = self.finder.moves(self.board, rack)
        if self.turn == cfg.phony_turn and self.try_phony(p, moves):
            return
        if not moves:
            if len(self.bag) >= RACK_SIZE:
                self.exchange(p, self.choose_exchange(rack))
            else:
                self.pass_(p)
            return
        ranked = sorted(moves, key=lambda m: (-self.value_of(m, rack), m.row, m.col, m.word))
        best = ranked[0]
        if self.value_of(best, rack) < cfg.exchange_below and len(self.bag) >= RACK_SIZE:
            self.exchange(p, self.choose_exchange(rack))
            return
        move = best
        if self.bag and len(ranked) > 1 and self.rng.random() < cfg.randomness:
            move = self.rng.choice(ranked[1 : min(6, len(ranked))])
        ev = self.put(p, move, rack_text)
        if self.turn == cfg.challenge_turn and self.out is None:
            other = self.nicks[(p + 1) % len(self.nicks)]
            self.totals[p] += 5
            self.add(
                p,
                Event(
                    nick,
                    "challenge",
                    sort_rack(self.racks[p]),
                    score=5,
                    cumulative=self.totals[p],
                    notes=[
                        f"{other} challenged {move.word.upper()}: it is good, "
                        f"{nick} gets the 5-point bonus."
                    ],
                ),
            )
        elif len(move.placed) == RACK_SIZE:
            ev.notes.append(f"Bingo! {move.word.upper()} for {move.score}.")

    def put(self, p: int, move: Move, rack_text: str) -> Event:
        rack = self.racks[p]
        ev = Event(
            self.nicks[p],
            "play",
            rack_text,
            move,
            move.gcg_word(self.board),
            move.gcg_word(self.board, full=True),
            score=move.score,
            cross=move.words,
        )
        self.boards.append(self.board.copy())
        self.board.put(move)
        for t in move.tiles_used():
            rack.remove(t)
        self.draw(rack, len(move.placed))
        self.totals[p] += move.score
        ev.cumulative = self.totals[p]
        self.scoreless = 0 if move.score else self.scoreless + 1
        if not rack and not self.bag:
            self.out = p
        return self.add(p, ev)

    def try_phony(self, p: int, moves: list[Move]) -> bool:
        """Play an anagram of a good play that is not a word; it is challenged off."""
        rack = self.racks[p]
        for real in sorted(moves, key=lambda m: -m.score):
            if len(real.placed) < 4 or real.score < 15:
                continue
            squares = [(r, c) for r, c, _ in real.placed]
            tiles = [t for _, _, t in real.placed]
            for perm in itertools.permutations(tiles):
                if list(perm) == tiles:
                    continue
                fake = Move(
                    real.row,
                    real.col,
                    real.direction,
                    "",
                    list(zip([s[0] for s in squares], [s[1] for s in squares], perm, strict=True)),
                )
                new = {(r, c): t for r, c, t in fake.placed}
                dr, dc = (0, 1) if fake.direction == "across" else (1, 0)
                main = run_through(self.board, new, real.row, real.col, dr, dc)
                fake.word = "".join(t for _, _, t in main)
                if fake.word.upper() in self.lex:
                    continue
                crosses = [run_through(self.board, new, r, c, dc, dr) for r, c in squares]
                if any(
                    len(x) > 1 and "".join(t for *_, t in x).upper() not in self.lex
                    for x in crosses
                ):
                    continue
                fake.score, fake.words = score_move(self.board, fake, self.values)
                rack_text = sort_rack(rack)
                nick = self.nicks[p]
                ev = Event(
                    nick,
                    "play",
                    rack_text,
                    fake,
                    fake.gcg_word(self.board),
                    fake.gcg_word(self.board, full=True),
                    score=fake.score,
                    cumulative=self.totals[p] + fake.score,
                    cross=fake.words,
                )
                self.boards.append(self.board.copy())
                self.add(p, ev)
                other = self.nicks[(p + 1) % len(self.nicks)]
                self.add(
                    p,
                    Event(
                        nick,
                        "withdrawn",
                        rack_text,
                        score=-fake.score,
                        cumulative=self.totals[p],
                        notes=[
                            f"{other} challenged {fake.word.upper()}*, which is not "
                            f"in the word list; {nick} meant {real.word.upper()}."
                        ],
                    ),
                )
                self.scoreless += 1
                return True
        return False

    def choose_exchange(self, rack: list[str]) -> list[str]:
        keep: list[str] = []
        for t in sorted(rack, key=lambda t: -(LEAVE_VALUE.get(t, -1) + LEAVE_VALUE_BAD.get(t, 0))):
            if t in keep or len(keep) >= 3:
                continue
            if LEAVE_VALUE.get(t, -1) >= 1:
                keep.append(t)
        out = list(rack)
        for t in keep:
            out.remove(t)
        return out

    def exchange(self, p: int, tiles: list[str]) -> None:
        rack = self.racks[p]
        rack_text = sort_rack(rack)
        for t in tiles:
            rack.remove(t)
        self.draw(rack, len(tiles))
        for t in tiles:
            self.bag.insert(self.rng.randrange(len(self.bag) + 1), t)
        kept = Counter(rack_text) - Counter(tiles)
        ev = self.add(
            p,
            Event(
                self.nicks[p],
                "exchange",
                rack_text,
                tiles=sort_rack(tiles),
                cumulative=self.totals[p],
            ),
        )
        if kept:
            ev.notes.append(f"Exchanged {len(tiles)}, keeping {sort_rack(kept.elements())}.")
        self.scoreless += 1

    def pass_(self, p: int) -> None:
        self.add(
            p, Event(self.nicks[p], "pass", sort_rack(self.racks[p]), cumulative=self.totals[p])
        )
        self.scoreless += 1

    def finish(self) -> None:
        n = len(self.nicks)
        if self.end_reason == "out":
            assert self.out is not None
            q = self.out
            others = [i for i in range(n) if i != q]
            left = [t for i in others for t in self.racks[i]]
            x = sum(tile_value(self.values, t) for t in left)
            if self.cfg.end_rule == "international":
                for i in others:
                    own = sort_rack(self.racks[i])
                    v = sum(tile_value(self.values, t) for t in self.racks[i])
                    self.totals[i] -= v
                    self.add(
                        i,
                        Event(
                            self.nicks[i],
                            "penalty",
                            own,
                            tiles=own,
                            score=-v,
                            cumulative=self.totals[i],
                        ),
                    )
                self.totals[q] += x
                self.add(
                    q,
                    Event(
                        self.nicks[q],
                        "endpoints",
                        tiles=sort_rack(left),
                        score=x,
                        cumulative=self.totals[q],
                    ),
                )
            else:
                self.totals[q] += 2 * x
                self.add(
                    q,
                    Event(
                        self.nicks[q],
                        "endpoints",
                        tiles=sort_rack(left),
                        score=2 * x,
                        cumulative=self.totals[q],
                    ),
                )
        elif self.end_reason == "scoreless":
            last = self.events[-1].nick
            start = (self.nicks.index(last) + 1) % n
            for k in range(n):
                i = (start + k) % n
                own = sort_rack(self.racks[i])
                v = sum(tile_value(self.values, t) for t in self.racks[i])
                self.totals[i] -= v
                self.add(
                    i,
                    Event(
                        self.nicks[i],
                        "penalty",
                        own,
                        tiles=own,
                        score=-v,
                        cumulative=self.totals[i],
                    ),
                )

    # ------------------------------------------------------------------ facts for choosing
    def features(self) -> dict[str, int]:
        plays = [ev for ev in self.events if ev.kind == "play" and ev.move]
        return {
            "bingos": sum(len(ev.move.placed) == RACK_SIZE for ev in plays if ev.move),
            "blanks": sum(BLANK in ev.move.tiles_used() for ev in plays if ev.move),
            "exchanges": sum(ev.kind == "exchange" for ev in self.events),
            "passes": sum(ev.kind == "pass" for ev in self.events),
            "phonies": sum(ev.kind == "withdrawn" for ev in self.events),
            "challenges": sum(ev.kind == "challenge" for ev in self.events),
            "turns": self.turn,
        }


# ---------------------------------------------------------------------------------- output
def event_line(ev: Event) -> str:
    """One event in modern canonical GCG."""
    head = f">{ev.nick}: {ev.rack}"
    if ev.kind == "play":
        assert ev.move is not None
        where = coordinate(ev.move.row, ev.move.col, ev.move.direction)
        return f"{head} {where} {ev.word} {ev.score:+d} {ev.cumulative}"
    if ev.kind == "pass":
        return f"{head} - +0 {ev.cumulative}"
    if ev.kind == "exchange":
        return f"{head} -{ev.tiles} +0 {ev.cumulative}"
    if ev.kind == "withdrawn":
        return f"{head} -- {ev.score:+d} {ev.cumulative}"
    if ev.kind == "challenge":
        return f"{head} (challenge) {ev.score:+d} {ev.cumulative}"
    if ev.kind in ("endpoints", "penalty"):
        return f"{head} ({ev.tiles}) {ev.score:+d} {ev.cumulative}"
    raise ValueError(ev.kind)


def header(
    title: str,
    gid: str,
    players: Sequence[tuple[str, str]],
    *,
    lexicon: str = "ENABLE2K",
    tiles: str = "english",
    description: str | None = None,
) -> list[str]:
    lines = ["#character-encoding UTF-8", f"#title {title}"]
    if description:
        lines.append(f"#description {description}")
    lines += [f"#id org.gcgtools.examples {gid}", f"#lexicon {lexicon}"]
    lines.append(f"#tile-distribution {tiles}")
    lines += [f"#player{i + 1} {nick} {name}" for i, (nick, name) in enumerate(players)]
    return lines


def render(game: Game, head: list[str], extra_notes: dict[int, list[str]] | None = None) -> str:
    lines = list(head)
    for i, ev in enumerate(game.events):
        lines.append(event_line(ev))
        notes = ev.notes + (extra_notes or {}).get(i, [])
        if notes:  # one #note line per event: readers differ on consecutive #note lines
            lines.append("#note " + " ".join(notes))
    if game.end_reason == "incomplete":
        lines.append("#incomplete")
    return "\n".join(lines) + "\n"


def render_dialects(game: Game, count: int) -> str:
    """The first ``count`` events in old dialects (WSC / early Quackle / Elise style)."""
    lines = [
        "#player1 " + " ".join(game.cfg.players[0]),
        "#player2 " + " ".join(game.cfg.players[1]),
        "#title Old dialects: tolerated by gcgtools",
    ]
    width = max(len(n) for n in game.nicks) + 3
    plays = iter(game.boards)
    for ev in game.events[:count]:
        who = f">{ev.nick}:".ljust(width)
        if ev.kind == "play":
            assert ev.move is not None
            m = ev.move
            board = next(plays)
            coord = coordinate(m.row, m.col, m.direction).lower()
            word = m.gcg_word(board, full=True)
            # old files list the words formed after the cumulative; kept to a few lines here
            # (gcgtools warns about each one, P106)
            cross = ", ".join(w.upper() for w in ev.cross) if len(ev.cross) > 2 else ""
            lines.append(
                f"{who}{ev.rack:<8} {coord:<4} {word:<15} {ev.score:+4d} {ev.cumulative:4d}"
                f"  {cross}".rstrip()
            )
        elif ev.kind == "pass":
            lines.append(f"{who}{ev.rack} -  +0 {ev.cumulative}")
        elif ev.kind == "exchange":
            lines.append(f"{who}{ev.rack} -{ev.tiles}  +0 {ev.cumulative}")
        elif ev.kind == "withdrawn":
            lines.append(f"{who}{ev.rack}   -- +0 {ev.cumulative}")
        elif ev.kind == "challenge":
            lines.append(f"{who}{ev.rack} (challenge)  {ev.score:+d} {ev.cumulative}")
        for note in ev.notes:
            lines.append(f"#note {note}")
    lines.append("#incomplete")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------- German
GERMAN_WORDS = {
    "HAUS", "MAUS", "STEIL", "ZEIT", "ÖL", "TÜR", "GRÜN", "BROT", "ROSE", "NEST", "HUND",
    "ESEL", "BÄR", "MÜDE", "WASSER", "SONNE", "KATZE", "TISCH", "BAUM", "ZELT", "RAT",
    "TOR", "ROT", "GAS", "EIS", "NEU", "ALT", "OHR", "ROSEN", "SEE", "ERZ", "ÄRGER",
}  # fmt: skip
GERMAN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ"

# (nick, rack before the move, coordinate, word as GCG writes it); '.' = played through.
GERMAN_MOVES = [
    ("lena", "AEHNSTU", "8F", "HAUS"),
    ("jonas", "EIMRSTU", "G7", "M.US"),
    ("lena", "EEILNTZ", "10G", ".TEIL"),
    ("jonas", "EINRRTÜ", "H10", ".ÜR"),
    ("lena", "EENORSZ", "12H", ".OSEN"),
    ("jonas", "EILNRTÖ", "K9", "Ö."),
]


def german_game(lexicon: Lexicon) -> tuple[list[Event], list[str]]:
    """The hand-placed German game: every word checked against GERMAN_WORDS, scored here."""
    values = {t: v for t, (_, v) in GERMAN.items()}
    pool = Counter({t: k for t, (k, _) in GERMAN.items()})
    board = Board()
    totals: dict[str, int] = {}
    leaves: dict[str, Counter[str]] = {}
    events = []
    for nick, rack, coord, word in GERMAN_MOVES:
        assert not Counter(rack) - pool, (nick, rack)
        if coord[0].isdigit():
            row, col, direction = int(coord[:-1]) - 1, ord(coord[-1]) - 65, "across"
        else:
            row, col, direction = int(coord[1:]) - 1, ord(coord[0]) - 65, "down"
        dr, dc = (0, 1) if direction == "across" else (1, 0)
        placed, full = [], []
        for i, ch in enumerate(word):
            r, c = row + i * dr, col + i * dc
            if ch == ".":
                full.append(board.grid[r][c] or "?")
            else:
                assert board.grid[r][c] is None
                placed.append((r, c, ch))
                full.append(ch)
        move = Move(row, col, direction, "".join(full), placed)
        move.score, move.words = score_move(board, move, values)
        bad = [w for w in move.words if w.upper() not in lexicon]
        assert not bad, (coord, word, bad)
        assert not leaves.get(nick, Counter()) - Counter(rack), (nick, rack, "keeps the leave")
        assert not Counter(move.tiles_used()) - Counter(rack), (rack, word)
        leaves[nick] = Counter(rack) - Counter(move.tiles_used())
        board.put(move)
        pool.subtract(move.tiles_used())
        totals[nick] = totals.get(nick, 0) + move.score
        ev = Event(
            nick, "play", sort_rack(rack), move, word, score=move.score, cumulative=totals[nick]
        )
        events.append(ev)
    return events, [event_line(ev) for ev in events]


# ---------------------------------------------------------------------------------- main
CLUB = Config(
    seed=13,
    players=[("Ada_Quill", "Ada Quill"), ("Brendan", "Brendan Ó Faoláin")],
    phony_turn=5,
    challenge_turn=8,
)
TRAINING = Config(seed=20, players=[("mira", "Mira Castellanos"), ("tobi", "Tobias Lindqvist")])
SIX = Config(
    seed=30,
    players=[("Ada_Quill", "Ada Quill"), ("mira", "Mira Castellanos")],
    scoreless_after=6,
)
INTERNATIONAL = Config(
    seed=40,
    players=[("Kofi", "Kofi Mensah"), ("Brendan", "Brendan Ó Faoláin")],
    end_rule="international",
)
THREE = Config(
    seed=50,
    players=[("Ada_Quill", "Ada Quill"), ("tobi", "Tobias Lindqvist"), ("Kofi", "Kofi Mensah")],
    stop_after=18,
)
DIALECTS = Config(
    seed=60,
    players=[("Pat", "Pat Old"), ("Sam", "Sam Older")],
    phony_turn=3,
    pass_turn=5,
)


DIALECT_EVENTS = 12  # how many events of the DIALECTS game go into dialects.gcg
DESCRIPTION = "Written for gcgtools by tools/make_examples.py (self-play, ENABLE2K, seed {seed})"


def with_mistakes(events: list[Event]) -> tuple[list[Event], list[str]]:
    """A copy of ``events`` with two wrong play scores and one wrong cumulative.

    Each mistake is carried into the player's later cumulatives, as a scorekeeper would:
    so each one is a single finding. Returns the events and a description of the mistakes.
    """
    out = [Event(**{**ev.__dict__, "notes": list(ev.notes)}) for ev in events]
    safe = [
        i
        for i, ev in enumerate(out)
        if ev.kind == "play"
        and i + 1 < len(out)
        and out[i + 1].kind == "play"
        and ev.score >= 10
        and len(str(ev.score)) == 2
        and str(ev.score)[0] != str(ev.score)[1]
    ]
    done = []

    def shift(i: int, delta: int) -> None:
        for ev in out[i:]:
            if ev.nick == out[i].nick:
                ev.cumulative += delta

    # 1. digits swapped in a play score (e.g. 27 written 72)
    i = safe[2]
    wrong = int(str(out[i].score)[::-1])
    done.append(f"line of {out[i].nick}'s {out[i].word}: {out[i].score} written as {wrong}")
    shift(i, wrong - out[i].score)
    out[i].score = wrong
    # 2. a play scored 10 too high
    i = safe[len(safe) // 2 + 1]
    done.append(f"{out[i].nick}'s {out[i].word}: {out[i].score} written as {out[i].score + 10}")
    out[i].score += 10
    shift(i, 10)
    # 3. an addition mistake in a cumulative, carried on
    i = safe[-2]
    done.append(f"{out[i].nick}'s total after {out[i].word}: 10 too low")
    shift(i, -10)
    return out, done


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")


def generate(out: Path, wordlist: Path) -> list[Path]:
    lexicon = Lexicon.from_file(wordlist)
    written = []

    # club-final.gcg: standard end, notes, exchange, phony withdrawn, challenge bonus
    club = Game(CLUB, lexicon).play()
    f = club.features()
    assert club.end_reason == "out" and f["exchanges"] and f["phonies"] and f["challenges"], f
    head = header(
        "gcgtools example: club final",
        "club-final",
        CLUB.players,
        description=DESCRIPTION.format(seed=CLUB.seed),
    )
    write(out / "club-final.gcg", render(club, head))
    written.append(out / "club-final.gcg")

    # with-errors/wrong-scores.gcg: the same game with three deliberate mistakes
    events, _ = with_mistakes(club.events)
    wrong = Game(CLUB, lexicon)
    wrong.events, wrong.end_reason = events, club.end_reason
    head = header(
        "gcgtools example: club final, with scoring mistakes",
        "wrong-scores",
        CLUB.players,
        description="club-final.gcg with two wrong play scores and "
        "one wrong cumulative, for the validate and fix demos",
    )
    first_note = {0: ["Deliberately wrong copy of examples/club-final.gcg (the correct twin)."]}
    write(out / "with-errors" / "wrong-scores.gcg", render(wrong, head, first_note))
    written.append(out / "with-errors" / "wrong-scores.gcg")

    # training-game.gcg: other players, bingos and blanks
    training = Game(TRAINING, lexicon).play()
    f = training.features()
    assert training.end_reason == "out" and f["bingos"] and f["blanks"], f
    head = header(
        "gcgtools example: training game",
        "training-game",
        TRAINING.players,
        description=DESCRIPTION.format(seed=TRAINING.seed),
    )
    write(out / "training-game.gcg", render(training, head))
    written.append(out / "training-game.gcg")

    # six-passes.gcg: the game ends after six scoreless turns
    six = Game(SIX, lexicon).play()
    assert six.end_reason == "scoreless", six.end_reason
    first = next(i for i, ev in enumerate(six.events) if ev.kind in ("exchange", "pass"))
    notes = {
        first: [
            "From here on both players only exchange or pass: after six scoreless "
            "turns in a row the game is over and each loses the value of own rack."
        ]
    }
    head = header(
        "gcgtools example: six scoreless turns",
        "six-passes",
        SIX.players,
        description=DESCRIPTION.format(seed=SIX.seed),
    )
    write(out / "six-passes.gcg", render(six, head, notes))
    written.append(out / "six-passes.gcg")

    # international.gcg: +x/-x end-of-game rule
    intl = Game(INTERNATIONAL, lexicon).play()
    assert intl.end_reason == "out", intl.end_reason
    last = len(intl.events) - 1
    notes = {
        last: [
            "International rule: the player who went out gains the value of the "
            "opponent's rack (not twice it), and the opponent loses it."
        ]
    }
    head = header(
        "gcgtools example: international end-of-game rule",
        "international",
        INTERNATIONAL.players,
        description=DESCRIPTION.format(seed=INTERNATIONAL.seed),
    )
    write(out / "international.gcg", render(intl, head, notes))
    written.append(out / "international.gcg")

    # three-players.gcg: three players, stopped early
    three = Game(THREE, lexicon).play()
    head = header(
        "gcgtools example: three players",
        "three-players",
        THREE.players,
        description=DESCRIPTION.format(seed=THREE.seed),
    )
    write(out / "three-players.gcg", render(three, head))
    written.append(out / "three-players.gcg")

    # dialects.gcg: the first events of a game in old dialects
    old = Game(DIALECTS, lexicon).play()
    kinds = [ev.kind for ev in old.events[:DIALECT_EVENTS]]
    assert "withdrawn" in kinds and "pass" in kinds, kinds
    write(out / "dialects.gcg", render_dialects(old, DIALECT_EVENTS))
    written.append(out / "dialects.gcg")

    # german.gcg: hand-placed German words, German tile values
    german = Lexicon(GERMAN_WORDS, GERMAN_ALPHABET)
    events, lines = german_game(german)
    head = header(
        "gcgtools example: a few German moves",
        "german",
        [("lena", "Lena Vogel"), ("jonas", "Jonas Brückner")],
        lexicon="RD28",
        tiles="german",
        description="Written for gcgtools by tools/make_examples.py "
        "(hand-placed words, German tile values)",
    )
    text = "\n".join([*head, *lines, "#incomplete"]) + "\n"
    write(out / "german.gcg", text)
    written.append(out / "german.gcg")
    return written


def check(paths: list[Path]) -> None:
    """Validate the files with gcgtools: the independent check of both scorers."""
    import gcgtools

    for path in paths:
        result = gcgtools.validate(gcgtools.read_game(str(path)))
        shown = [f for f in result.findings if f.severity != "info"]
        print(f"{path}: {len(shown)} finding(s)")
        for finding in shown:
            print(f"    {finding}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordlist", type=Path, default=WORDLIST)
    parser.add_argument("--out", type=Path, default=Path("examples"))
    parser.add_argument("--check", action="store_true", help="validate with gcgtools after")
    args = parser.parse_args(argv)
    written = generate(args.out, args.wordlist)
    if args.check:
        check(written)


if __name__ == "__main__":
    main()
