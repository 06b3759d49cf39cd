"""The simulation's playouts in C: one sample (a candidate against an iteration's draw)
computed by the C helper (``gcgtools/movegen/simulation.c``) with exactly the values of
the Python reference, :class:`gcgtools.analysis.simulate._Sampler`.

What the C sample does, step by step as the reference does it: the unseen tiles (sorted)
are shuffled by the same Mersenne Twister as Python's ``random.Random``, seeded with the
same number (the iteration's sha256 digest: ``simulate._digest``); the opponent's rack
and the bag come from that order; the candidate, then each ply's best static move
(``find_moves`` with top 1, as ``EngineBoard.generate_best``) are played on the C
helper's own copy of the board, with the racks, bag, scores and the end of the game
moved on as :func:`gcgtools.analysis.playout.advance` does (an exchange's tiles go back
into the bag at places drawn from that generator, after its shuffle, as
``_LaterRng`` does); the end is valued by the win model (the built-in logistic or a
table, read in C) and the moves are taken back.

:func:`native_playouts` gives a :class:`NativePlayouts` when the C helper runs and can
take the simulation: the leaves a KLV (or none), the model a
:class:`~gcgtools.analysis.winprob.LogisticWinModel` or
:class:`~gcgtools.analysis.winprob.TableWinModel`, the rack, the alphabet and the plies
within its limits. Otherwise (and with ``GCGTOOLS_PURE_PYTHON``) the Python reference
computes the samples: the same values, slower.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence

from gcgtools.analysis.winprob import LogisticWinModel, TableWinModel, WinModel
from gcgtools.lexicon.leaves import BALANCE_PENALTY, DUPLICATE_PENALTY, HeuristicLeaves
from gcgtools.movegen import EngineBoard, Move
from gcgtools.movegen.board_state import NativeParts
from gcgtools.movegen.generate import LeaveValues
from gcgtools.movegen.move import move_tiles
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK, TileError

__all__ = ["MAX_PLIES", "NativePlayouts", "native_playouts"]

#: The most plies after the candidate a C playout makes (simulation.h's SIM_MAX_PLIES).
MAX_PLIES = 32
#: The most unseen tiles (SIM_MAX_TILES).
MAX_UNSEEN = 256
_KINDS = {"play": 0, "exchange": 1, "pass": 2}  # generation.h's KIND_*
_BLANK_BIT = 0x40  # engine.h: a play's tile is a blank standing for the letter


class NativePlayouts:
    """One C simulation state (a board of the position played on and taken back):
    :meth:`samples` gives samples' six values as ``simulate.Sample`` lists them."""

    __slots__ = ("_module", "_handle")

    def __init__(self, module: object, handle: object) -> None:
        self._module = module
        self._handle = handle

    def samples(self, tasks: Sequence[tuple[int, bytes]]) -> list[tuple[object, ...]]:
        """Per ``(candidate, digest)``: the candidate against the draw of the iteration
        seeded by ``digest`` (one call for many: a call costs about a microsecond)."""
        return self._module.sim_samples(self._handle, tasks)  # type: ignore[attr-defined,no-any-return]


def native_playouts(
    engine: EngineBoard, *, rack: Sequence[str], unseen: Sequence[str],
    scores: tuple[int, int], zeros: int, rules: RuleSet, moves: Sequence[Move],
    leaves: LeaveValues | None, model: WinModel, plies: int,
) -> NativePlayouts | None:  # fmt: skip
    """The C playouts of a simulation on ``engine`` (an EngineBoard of the position:
    ``rack``, the root player's in its order, ``unseen`` in the order the iterations
    shuffle them), or None when the C helper does not run or cannot take it."""
    parts = engine.native_parts(leaves)
    model_args = _model(model)
    limits = plies <= MAX_PLIES and len(unseen) <= MAX_UNSEEN and len(moves) > 0
    if parts is None or model_args is None or not limits:
        return None
    klv = parts.klv
    if rules.rack_size > parts.module.MAX_RACK or (
        klv is not None and rules.rack_size > int(klv[-1]) + 1  # type: ignore[call-overload]
    ):
        return None  # a rack longer than the KLV's leaves and one: estimated in Python
    leaves_args = klv if klv is not None or leaves is None else _heuristic(leaves, parts)
    if leaves is not None and leaves_args is None:
        return None  # a leave table C does not know: valued in Python
    if not _same_values(parts, rules):
        return None
    code = _coder(parts)
    end = rules.end_rule
    rules_args = (rules.rack_size, rules.bingo_bonus, rules.exchange_minimum_bag,
                  end.out_multiplier, int(end.deducts_own_rack),
                  rules.max_scoreless_turns)  # fmt: skip
    position = (plies, [code(t) for t in rack], [code(t) for t in unseen], scores[0], scores[1],
                zeros)  # fmt: skip
    candidates = [_candidate(m, code, engine.size) for m in moves]
    handle = parts.module.sim_new(parts.lexicon, parts.board, leaves_args, rules_args,
                                  model_args, position, candidates, parts.state)  # fmt: skip
    return NativePlayouts(parts.module, handle)


def _model(model: WinModel) -> tuple[object, ...] | None:
    """The win model as the C helper reads it, or None for another kind of model."""
    if type(model) is LogisticWinModel:
        return (0, float(model.m0), float(model.m1), float(model.s0), float(model.s1))
    if type(model) is TableWinModel:
        flat = array("d")
        for row in model.rows:
            flat.extend(row)
        return (1, flat, len(model.rows), model.max_spread)
    return None


def _heuristic(leaves: LeaveValues, parts: NativeParts) -> tuple[object, ...] | None:
    """The built-in heuristic leaves as the C helper reads them (each KWG tile's value
    and whether it is a vowel, the two penalties), or None for another leave table."""
    if type(leaves) is not HeuristicLeaves:
        return None
    texts = [BLANK] * len(parts.lexicon[6])  # type: ignore[arg-type]
    for text, i in parts.index.items():  # tile text by KWG index (index 0: the blank)
        if 0 < i < len(texts):
            texts[i] = text
    try:
        nums = leaves.alphabet.encode_tiles(texts)
    except TileError:
        return None
    values = [float(leaves.per_tile[n]) for n in nums]
    vowels = [int(n != 0 and leaves._vowel[n]) for n in nums]
    return (values, vowels, float(DUPLICATE_PENALTY), float(BALANCE_PENALTY))


def _same_values(parts: NativeParts, rules: RuleSet) -> bool:
    """Whether the rules' tile values (the end of the game's rack points) are the
    engine's (the generator's scores)."""
    values = rules.tiles.token_values
    tile_values = parts.lexicon[6]
    return all(
        values.get(t, 0) == tile_values[i]  # type: ignore[index]
        for t, i in parts.index.items()
        if 0 < i < len(tile_values)  # type: ignore[arg-type]
    )


def _coder(parts: NativeParts) -> Callable[[str], int]:
    """Tile text (upper case, ``?`` a blank) -> KWG index."""
    index = parts.index

    def code(tile: str) -> int:
        return 0 if tile == BLANK else index[tile]

    return code


def _candidate(move: Move, code: Callable[[str], int], size: int) -> tuple[object, ...]:
    """A candidate as the C helper reads it: kind, score, leave value, bingo, the new
    squares and their tiles (a play), or the tiles thrown in the order they go back (an
    exchange)."""
    kind = _KINDS[str(move.kind)]
    flats: list[int] = []
    codes: list[int] = []
    if kind == 0:
        for r, c, tile in move.squares:
            flats.append(r * size + c)
            blank = not tile.isupper()
            codes.append(code(tile.upper()) | (_BLANK_BIT if blank else 0))
    elif kind == 1:
        codes = [code(t) for t in move_tiles(move)]
    return (kind, move.score, float(move.leave_value), bool(move.bingo), flats, codes)
