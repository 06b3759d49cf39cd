"""The words the tiles left can make on the board: the lexicon an endgame search needs.

The pure-Python twin of ``word_prune.c`` (the C helper builds the same words, and a KWG of
them, for its endgame search; the tests compare the two). The words kept:

* along each line (row or column) of the board, every word through at least one of its
  tiles in place, the other squares filled with tiles left (at least one), ending next
  to an empty square or the edge at both ends;
* every word of the tiles alone no longer than the longest run of empty squares of a
  line not next to a tile.

A blank (tile index 0) makes any letter. Every word a play can form later in the game is
one of these, as long as the tiles played come from ``tiles``: a line's letters are then
its tiles now, in place, and tiles left. The KWG of such words is
:func:`gcgtools.lexicon.build.build_nodes` of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from gcgtools.lexicon.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, Kwg

__all__ = ["free_run", "pruned_words"]


def free_run(line: Sequence[int]) -> int:
    """The longest run of empty squares (0) of a line not next to a tile."""
    best = run = 0
    for letter in line:
        if not letter:
            run += 1
            continue
        best = max(best, run - 1)  # the square before a tile is next to it
        run = -1  # ... and so is the one after
    return max(best, run)


class _Walk:
    """The words of one board (see the module): the tiles left as counts by index."""

    def __init__(self, kwg: Kwg, tiles: list[int]) -> None:
        self.nodes = kwg.nodes
        self.tiles = tiles
        self.words: set[bytes] = set()
        self.line: Sequence[int] = ()
        self.size = 0
        self.anchor = self.leftmost = 0
        self.strip: list[int] = []

    def _group(self, group: int) -> list[int]:
        out = []
        if not group:
            return out
        i = group
        while True:
            node = self.nodes[i]
            out.append(node)
            if node & IS_END:
                return out
            i += 1

    def _use(self, tile: int) -> int:
        """The tile that makes letter ``tile`` (itself, else a blank), or -1."""
        if tile and self.tiles[tile]:
            return tile
        return 0 if tile and self.tiles[0] else -1

    def free_words(self, group: int, word: list[int], most: int) -> None:
        if len(word) >= most:
            return
        for node in self._group(group):
            tile = node >> TILE_SHIFT
            use = self._use(tile)
            if use < 0:
                continue
            self.tiles[use] -= 1
            word.append(tile)
            if node & ACCEPTS:
                self.words.add(bytes(word))
            self.free_words(node & ARC_MASK, word, most)
            word.pop()
            self.tiles[use] += 1

    def place(self, pos: int, group: int, left: int, used: int) -> None:
        """A letter on square ``pos`` from ``group``: the board's, or each tile's (going
        right when ``left >= 0``, else left)."""
        board = self.line[pos]
        for node in self._group(group):
            tile = node >> TILE_SHIFT
            if board:
                if tile != board:
                    continue
                use = -2
            else:
                use = self._use(tile)
                if use < 0:
                    continue
                self.tiles[use] -= 1
            self.strip[pos] = tile
            n = used + (use != -2)
            if left >= 0:
                self.right_placed(pos, node, left, n)
            else:
                self.left_placed(pos, node, n)
            if use >= 0:
                self.tiles[use] += 1

    def left_placed(self, pos: int, node: int, used: int) -> None:
        line, anchor = self.line, self.anchor
        left_ok = pos == 0 or not line[pos - 1]
        right_ok = anchor == self.size - 1 or not line[anchor + 1]
        if left_ok and right_ok and used and node & ACCEPTS:
            self.words.add(bytes(self.strip[pos : anchor + 1]))
        arc = node & ARC_MASK
        if not arc:
            return
        if not left_ok:
            self.place(pos - 1, arc, -1, used)
            return
        if pos - 1 >= self.leftmost:
            self.place(pos - 1, arc, -1, used)
        if anchor + 1 < self.size:
            sep = [n for n in self._group(arc) if n >> TILE_SHIFT == 0]
            if sep and sep[0] & ARC_MASK:
                self.place(anchor + 1, sep[0] & ARC_MASK, pos, used)

    def right_placed(self, pos: int, node: int, left: int, used: int) -> None:
        right_ok = pos == self.size - 1 or not self.line[pos + 1]
        if right_ok and used and node & ACCEPTS:
            self.words.add(bytes(self.strip[left : pos + 1]))
        if node & ARC_MASK and pos + 1 < self.size:
            self.place(pos + 1, node & ARC_MASK, left, used)

    def line_words(self, line: Sequence[int], gaddag_root: int) -> None:
        self.line, self.size = line, len(line)
        self.strip = [0] * len(line)
        prev_end = -2
        i = 0
        while i < len(line):
            if line[i]:
                while i + 1 < len(line) and line[i + 1]:
                    i += 1
                self.anchor, self.leftmost = i, prev_end + 2
                self.place(i, gaddag_root, -1, 0)
                prev_end = i
            i += 1


def pruned_words(kwg: Kwg, board: Sequence[int], size: int, tiles: Sequence[int]) -> list[bytes]:
    """The words (tile indices, sorted) that ``tiles`` (counts by tile index, index 0 the
    blanks) can make on ``board`` (``size`` x ``size`` squares row by row, each square's
    letter as its index, 0 empty; a blank on the board as its letter), as the module
    says."""
    walk = _Walk(kwg, list(tiles))
    rows = [list(board[r * size : (r + 1) * size]) for r in range(size)]
    cols = [[board[r * size + c] for r in range(size)] for c in range(size)]
    lines = rows + cols
    most = max(free_run(line) for line in lines)
    if kwg.dawg_root:
        walk.free_words(kwg.dawg_root, [], most)
    if kwg.gaddag_root:
        for line in {tuple(line): None for line in lines}:
            walk.line_words(line, kwg.gaddag_root)
    return sorted(walk.words)
