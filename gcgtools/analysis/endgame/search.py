"""The exact endgame solver: negamax with alpha-beta pruning, iterative deepening and a
transposition table.

* **Value** of a position: the points the player to move gains over the opponent from
  here to the end of the game with best play by both (end-of-game rack points included,
  see :mod:`gcgtools.analysis.endgame.state`). A move's value is its gain minus the
  value of the position it leaves for the opponent.
* **Iterative deepening**: depth 1, 2, ... plies. Where a line is cut off before the
  end, the position is valued by :meth:`SearchState.estimate` and the line is not
  *complete*; a depth whose every line reached the end of the game gives the exact value
  (**proved**). No game lasts more than ``2 T + 1`` plies (``T`` the tiles on both racks
  and in the bag: each play uses a tile, and passes never come twice in a row but at the
  end), so the deepening stops there at the latest.
* **A forced pass costs no ply**: when the pass is the only move, after a play, the
  position after it is searched to the same depth (except one ply from the depth, as in C).
  A player whose tiles cannot be played passes while the other plays a tile a turn:
  those lines are seen to their end at about half the depth.
* **Transposition table**: one entry per Zobrist hash of board, racks, bag, side to move
  and scoreless turns: the depth searched, whether the value is exact or a lower or upper
  bound, whether it is complete (then it holds at every depth) and the best move.
* **Move ordering**: the transposition table's move, then the generator's end-of-game
  equity (going out first, then score minus the tiles kept); at the root, the values of
  the previous depth, best first.
* **Budget** (:class:`Limit`): when the nodes, seconds or depth run out, the answer is
  the last completed depth's, not proved. The nodes and the clock are checked at every
  node, so a budget holds to the node and to well within a millisecond; the principal
  variations are followed within the same budget. A depth that would need
  :data:`HOPELESS` times the nodes left is not started: the search stops there, with its
  node count below the budget, and says why (:attr:`EndgameResult.stopped`).
* **Interrupt**: Ctrl-C or SIGTERM inside :func:`gcgtools.console.stopping_on_signals`
  stops the search at the next node, with the answer of the last completed depth.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator
from typing import NamedTuple

from gcgtools.analysis.endgame.moves import EgMove, MoveSource
from gcgtools.analysis.endgame.native import native_endgame, solve_native
from gcgtools.analysis.endgame.position import EndgamePosition
from gcgtools.analysis.endgame.result import EXACT, EndgameResult, Limit, Progress, RootMove
from gcgtools.analysis.endgame.state import SearchState
from gcgtools.console import stop_requested

__all__ = ["OutOfBudget", "Searcher", "solve_endgame"]

INF = 1 << 20
EXACT_FLAG, LOWER, UPPER = 0, 1, 2
#: entries kept in the transposition table (and moves in the move cache) before a clear
TT_SIZE = 1 << 20
MOVE_CACHE_SIZE = 1 << 21
#: moves generated at a new position before the rest are needed
FIRST = 8
#: a depth predicted to need this many times the nodes left is not started
HOPELESS = 32

#: (value, complete, move, exact): one root move after one depth
RootLine = tuple[int, bool, EgMove, bool]


class Line(NamedTuple):
    """A principal variation: the moves' notations, their scores, and the rack points
    its last move gains when it ends the game (None when the line stops before)."""

    moves: list[str]
    scores: list[int]
    ending: int | None


class OutOfBudget(Exception):
    """The search's budget is spent, or it was asked to stop (the state is left as it
    was before the search); ``reason`` is which (as :attr:`EndgameResult.stopped`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Searcher:
    """One search of one position. ``transposition`` False: the table is never read
    during the search (it still records the lines, for the principal variation)."""

    def __init__(
        self,
        position: EndgamePosition,
        limit: Limit = EXACT,
        *,
        source: MoveSource | None = None,
        transposition: bool = True,
    ) -> None:
        self.state = SearchState(position, source or MoveSource(position.lexicon, position.rules))
        self.limit = limit
        self.use_tt = transposition
        self.tt: dict[int, tuple[int, int, int, bool, int | None]] = {}
        self.move_cache: dict[int, list[EgMove]] = {}
        self.cached = 0
        self.nodes = 0
        self.start = time.perf_counter()
        self.deadline = None if limit.seconds is None else self.start + limit.seconds
        self.max_nodes = limit.nodes
        tiles = sum(len(r) for r in position.racks) + len(position.bag)
        self.horizon = 2 * tiles + 1

    # ------------------------------------------------------------------ helpers
    def moves_here(self) -> list[EgMove]:
        """Every move of the position, best first (cached by the position's hash)."""
        found, complete = self._moves(self.state.hash)
        if not complete:
            found = self._complete(self.state.hash, found)
        return found

    def _moves(self, key: int) -> tuple[list[EgMove], bool]:
        """The position's moves as far as they are known: the first :data:`FIRST` at
        first (most nodes are cut off after one or two), and whether that is all."""
        cached = self.move_cache.get(key)
        if cached is None:
            found = self.state.moves(top=FIRST)
            cached = (found, len(found) < FIRST)
            self._cache(key, cached)
        return cached

    def _complete(self, key: int, first: list[EgMove]) -> list[EgMove]:
        """Every move of the position: ``first`` (the first moves, already made) and the
        rest."""
        found = first + self.state.moves(skip=len(first))
        self._cache(key, (found, True))
        return found

    def _cache(self, key: int, entry: tuple[list[EgMove], bool]) -> None:
        if self.cached + len(entry[0]) > MOVE_CACHE_SIZE:
            self.move_cache.clear()
            self.cached = 0
        self.move_cache[key] = entry
        self.cached += len(entry[0])

    def _ordered(self, key: int, tt_move: int | None) -> Iterator[EgMove]:
        """The position's moves to search, the table's move first; the moves after the
        first ones are generated only when the search gets to them."""
        moves, complete = self._moves(key)
        if tt_move is not None and tt_move >= len(moves) and not complete:
            moves, complete = self._complete(key, moves), True
        if tt_move is not None and tt_move < len(moves):
            yield moves[tt_move]
            for m in moves:
                if m.index != tt_move:
                    yield m
        else:
            yield from moves
        if not complete:
            yield from self._complete(key, moves)[len(moves) :]

    def _count(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise OutOfBudget("nodes")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfBudget("seconds")
        if stop_requested():
            raise OutOfBudget("interrupted")
        self.nodes += 1

    def _store(self, key: int, entry: tuple[int, int, int, bool, int | None]) -> None:
        if len(self.tt) >= TT_SIZE:
            self.tt.clear()
        self.tt[key] = entry

    # ------------------------------------------------------------------ negamax
    def negamax(self, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """The value of the position for the player to move, searched ``depth`` plies
        (fail-soft within ``alpha``..``beta``), and whether it is complete."""
        self._count()
        st = self.state
        key = st.hash
        tt_move = None
        if self.use_tt:
            entry = self.tt.get(key)
            if entry is not None:
                e_depth, flag, value, complete, tt_move = entry
                if complete or e_depth >= depth:
                    if (
                        flag == EXACT_FLAG
                        or (flag == LOWER and value >= beta)
                        or (flag == UPPER and value <= alpha)
                    ):
                        return value, complete
        if depth <= 0:
            return st.estimate(), False
        if self._forced_pass(key, depth):
            return self._pass_through(key, depth, alpha, beta)
        moves = self._ordered(key, tt_move)
        alpha0 = alpha
        best = -INF
        best_key = None
        complete = True
        for m in moves:
            gain, over, undo = st.play(m)
            try:
                if over:
                    value, done = gain, True
                else:
                    child, done = self.negamax(depth - 1, gain - beta, gain - alpha)
                    value = gain - child
            finally:  # out of budget too: the state is left as it was found
                st.undo(m, undo)
            complete = complete and done
            if value > best:
                best, best_key = value, m.index
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT_FLAG
        self._store(key, (depth, flag, best, complete, best_key))
        return best, complete

    def _forced_pass(self, key: int, depth: int) -> bool:
        """Whether the pass is the position's only move, comes after a play and is
        ``depth`` plies (2 or more, as in C) from the search's depth: such a
        pass costs no ply of the depth (as in MAGPIE's endgame, ``forced_pass_bypass``).
        A player whose tiles cannot be played passes while the other plays a tile or two
        a turn: those lines are seen to their end at half the depth. After a pass it is
        not: two passes end the game, so the next one does."""
        if depth < 2:
            return False
        moves, complete = self._moves(key)
        return complete and len(moves) == 1 and moves[0].is_pass and not self.state.zeros

    def _pass_through(self, key: int, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """The position's forced pass played and the position after it searched to the
        same depth."""
        st = self.state
        (m,), _ = self._moves(key)
        gain, over, undo = st.play(m)
        try:
            if over:
                value, done = gain, True
            else:
                child, done = self.negamax(depth, gain - beta, gain - alpha)
                value = gain - child
        finally:
            st.undo(m, undo)
        flag = UPPER if value <= alpha else LOWER if value >= beta else EXACT_FLAG
        self._store(key, (depth, flag, value, done, m.index))
        return value, done

    # ------------------------------------------------------------------ root
    def root(
        self, depth: int, moves: list[EgMove], all_moves: bool, exact: frozenset[int] = frozenset()
    ) -> list[RootLine]:
        """Every root move searched ``depth`` plies: its value, whether complete, and
        whether the value is exact (else an upper bound: it could not beat the best).
        A move gets a full window when ``all_moves``, when it is the first or when its
        index is in ``exact``; any other move is first tested with a null window (can it
        beat the best so far?) and searched again only when it can (principal variation
        search)."""
        st = self.state
        alpha = -INF
        lines: list[RootLine] = []
        for m in moves:
            full = all_moves or not lines or m.index in exact
            gain, over, undo = st.play(m)
            try:
                if over:
                    value, done = gain, True
                elif full:
                    child, done = self.negamax(depth - 1, gain - INF, gain + INF)
                    value = gain - child
                else:
                    child, done = self.negamax(depth - 1, gain - alpha - 1, gain - alpha)
                    value = gain - child
                    if value > alpha:  # it beats the best so far: its exact value
                        child, done = self.negamax(depth - 1, gain - INF, gain - alpha)
                        value = gain - child
            finally:
                st.undo(m, undo)
            lines.append((value, done, m, full or value > alpha))
            alpha = max(alpha, value)
        lines.sort(key=lambda line: -line[0])
        return lines

    def principal_variation(self, first: EgMove, depth: int, search: bool) -> Line:
        """The line after ``first``: at each position the table's best move (searched
        again with a full window first when ``search``, so that the entry is exact)."""
        st = self.state
        line = [first.notation()]
        played = [(first, st.play(first))]
        over = played[0][1][1]
        remaining = depth - 1
        try:
            while not over and remaining > 0:
                if search:
                    self.negamax(remaining, -INF, INF)
                entry = self.tt.get(st.hash)
                if entry is None or entry[4] is None:
                    break
                here = self.moves_here()
                if not 0 <= entry[4] < len(here):
                    break
                forced = self._forced_pass(st.hash, remaining)  # as in negamax
                m = here[entry[4]]
                result = st.play(m)
                played.append((m, result))
                line.append(m.notation())
                over = result[1]
                remaining -= 0 if forced else 1
        except OutOfBudget:
            pass
        finally:
            for m, (_, _, undo) in reversed(played):
                st.undo(m, undo)
        last, (gain, over, _) = played[-1]
        # what the last move gains beyond its score when it ends the game: the rack points
        ending = gain - last.move.score if over else None
        return Line(line, [m.move.score for m, _ in played], ending)


def solve_endgame(
    position: EndgamePosition,
    limit: Limit = EXACT,
    *,
    all_moves: bool = False,
    exact: Collection[str] = (),
    roots: Collection[str] | None = None,
    source: MoveSource | None = None,
    transposition: bool = True,
    iterative: bool = True,
    on_depth: Callable[[Progress], None] | None = None,
    native: bool = True,
) -> EndgameResult:
    """Solve an endgame (see the module's description). ``all_moves``: give every root
    move's exact value (each searched with a full window; slower), else only the best
    move's and those of the root moves named in ``exact`` (notations, e.g. the move a
    player made): ``moves`` then holds the best move and those. ``roots``: search only
    the root moves of these notations (None: every one), the best being the best of
    them. ``transposition`` and ``iterative`` switch the table and the deepening off (the
    value of a proved search is the same either way). ``on_depth`` is told of each depth
    completed (:class:`Progress`: a terminal shows it). ``native``: run the search in C
    (:mod:`gcgtools.analysis.endgame.native`) when the C helper is built and not switched
    off, and the table and the deepening are on; False: always this Python search (the
    reference)."""
    helper = native_endgame(position) if native and transposition and iterative else None
    if helper is not None and (source is None or type(source) is MoveSource):
        return solve_native(
            helper, position, limit, all_moves=all_moves, exact=exact, roots=roots,
            source=source, on_depth=on_depth,
        )  # fmt: skip
    s = Searcher(position, limit, source=source, transposition=transposition)
    moves = s.moves_here()
    if roots is not None:
        moves = [m for m in moves if m.notation() in roots]
    wanted = frozenset(m.index for m in moves if exact and m.notation() in exact)
    last: list[RootLine] = []
    reached = 0
    stopped = "depth"  # the depths ran out (the limit's) unless said otherwise below
    top = s.horizon if limit.depth is None else min(limit.depth, s.horizon)
    depths = range(1, top + 1) if iterative else range(top, top + 1)
    spent: list[int] = []  # the nodes of each completed depth
    try:
        for depth in depths:
            if _hopeless(spent, s.nodes, s.max_nodes):
                stopped = "hopeless"
                break
            before = s.nodes
            last = s.root(depth, moves, all_moves, wanted)
            spent.append(s.nodes - before)
            reached = depth
            moves = [line[2] for line in last]
            if on_depth is not None and last:
                seconds = time.perf_counter() - s.start
                on_depth(Progress(depth, s.nodes, last[0][2].notation(), last[0][0], seconds))
            if all(line[1] for line in last):
                stopped = "proved"
                break
    except OutOfBudget as exc:
        stopped = exc.reason
    return _result(s, last, reached, stopped, all_moves, wanted, moves)


def _hopeless(spent: list[int], nodes: int, budget: int | None) -> bool:
    """Whether the next depth would need more than :data:`HOPELESS` times the nodes left
    in the budget, going by the growth from the last depth to this one: it would not be
    completed, and an incomplete depth's values are not used, so it is not started."""
    if budget is None or len(spent) < 2 or spent[-2] <= 0:
        return False
    growth = max(1.0, spent[-1] / spent[-2])
    return spent[-1] * growth > HOPELESS * (budget - nodes)


def _result(
    s: Searcher,
    lines: list[RootLine],
    depth: int,
    stopped: str,
    all_moves: bool,
    wanted: frozenset[int],
    moves: list[EgMove],
) -> EndgameResult:
    if not lines:  # not even depth 1 was completed: each move valued by its gain alone
        st = s.state
        for m in moves:
            gain, over, undo = st.play(m)
            st.undo(m, undo)
            lines.append((gain, over, m, True))
        lines.sort(key=lambda line: -line[0])
        if not lines:
            seconds = time.perf_counter() - s.start
            return EndgameResult(None, 0, [], False, s.nodes, 0, seconds, stopped=stopped)
    value, _, best, _ = lines[0]
    proved = stopped == "proved"
    # the principal variation of a proved value is followed to the end (its positions
    # are in the table: a node each), within the same budget
    pv = s.principal_variation(best, depth, proved)
    roots: list[RootMove] = []  # the best move always, and the others asked for
    for v, done, m, _ in lines:
        if m is best or all_moves or m.index in wanted:
            line = pv if m is best else s.principal_variation(m, depth, proved)
            roots.append(RootMove(m.move, v, done, line.moves, line.scores, line.ending))
    seconds = time.perf_counter() - s.start
    return EndgameResult(
        best.move, value, pv.moves, proved, s.nodes, depth, seconds, roots, stopped
    )
