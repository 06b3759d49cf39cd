"""The board as text, with a legend, the move, the players' scores and racks after it.

::

        A B C D E F G H I J K L M N O
      1 = . . ' . . . B . . . ' . . H
      ...
    = triple word  - double word  " triple letter  ' double letter  (lower case: a blank)

    after event 8 (line 17): Ada_Quill O1 HaN(G)OVEr +167, total 246
      Ada_Quill   246  rack AEIIKMR
    > Brendan      63  rack EGJNSTW  (to move)
      bag 59; unseen 66 (Brendan's view): A×7 C×2 ...; vowels 27, consonants 39
"""

from __future__ import annotations

from dataclasses import dataclass

from gcgtools.model.game import Game, unreadable_reason
from gcgtools.replay.after import position_after
from gcgtools.replay.notation import event_notation, study_view, unseen_counts_text
from gcgtools.replay.walk import Position
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import display_name

__all__ = ["BoardText", "board_text", "legend", "position_text"]

_SYMBOLS = (
    ("TW", "=", "triple word"),
    ("DW", "-", "double word"),
    ("TL", '"', "triple letter"),
    ("DL", "'", "double letter"),
    ("QW", "~", "quadruple word"),
    ("QL", "^", "quadruple letter"),
)


def legend(pos: Position) -> str:
    """The meaning of the premium symbols the board of ``pos`` uses."""
    used = set(pos.board.premiums)
    parts = [f"{symbol} {name}" for code, symbol, name in _SYMBOLS if code in used]
    return "  ".join(parts) + "  (lower case: a blank)"


def _nick(game: Game, index: int) -> str:
    player = game.player(index)
    return player.nick if player is not None else f"player{index + 1}"


def position_text(game: Game, pos: Position) -> str:
    """The board after ``pos``, the premium legend, the event (as ``COORD WORD`` with the
    played-through letters in parentheses) and a line per player: recorded score (and the
    computed one when it differs) and the rack they hold after the event; ``>`` marks the
    player to move. Last, the bag and the unseen tiles per letter from the view of the
    player to move."""
    lines = [str(pos.board), legend(pos), ""]
    view = study_view(game, pos)
    e = pos.event
    if e is not None:
        who = _nick(game, pos.player) if pos.player is not None else e.nick
        lines.append(
            f"after event {pos.number} (line {e.line}): {who} {event_notation(e, pos)}"
            f" {e.score:+d}, total {e.cumulative}"
        )
    else:
        lines.append("before the first event (event 0)")
    if pos.game_over:
        lines[-1] += f"; game over ({pos.end_reason})" if pos.end_reason else "; game over"
    count = len(pos.recorded)
    width = max((len(_nick(game, k)) for k in range(count)), default=8)
    for k in range(count):
        mark = ">" if k == view.to_move else " "
        score = f"{pos.recorded[k]:>4}"
        if k < len(pos.scores) and pos.scores[k] != pos.recorded[k]:
            score += f" (computed {pos.scores[k]})"
        rack = view.racks[k]
        kept = pos.kept[k] if k < len(pos.kept) else None
        if rack == "":
            rack_text = "(empty)"
        elif rack is None:
            rack_text = f"{kept} kept, the rest unknown" if kept else "unknown"
        else:
            rack_text = rack
        line = f"{mark} {_nick(game, k):<{width}} {score}  rack {rack_text}"
        if k == view.to_move:
            line += "  (to move)"
        lines.append(line)
    whose = f" ({_nick(game, view.view)}'s view)" if view.view is not None else ""
    tiles = pos.board.tileset
    lines.append(
        f"  bag {pos.bag}; unseen {view.count}{whose}: {unseen_counts_text(view.unseen, tiles)}"
    )
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class BoardText:
    """What ``board`` shows of one record: its ``text`` (the board, or a CGP line), or
    the ``problem`` that stopped it (an event out of range, an unknown tile set), or why
    the file is ``unreadable``. ``events``: the record's number of events, set when the
    event asked for is not one of them (0 to ``events``), for a caller that names its
    own option in the message."""

    text: str | None = None
    problem: str | None = None
    unreadable: str | None = None
    events: int | None = None


def board_text(
    path: str,
    move: int | None = None,
    *,
    options: RuleOptions = NO_OPTIONS,
    cgp: bool = False,
) -> BoardText:
    """The text board (with ``cgp``, the CGP line) of the record ``path`` after event
    ``move`` (None: the last). Never raises for a bad file, so it can run in a worker."""
    game = load_game(path)
    name = display_name(path)
    if game.unreadable:
        return BoardText(unreadable=unreadable_reason(game.findings))
    if move is not None and not 0 <= move <= len(game.events):
        count = len(game.events)
        return BoardText(problem=f"{name}: move must be between 0 and {count}", events=count)
    try:
        if cgp:
            from gcgtools.movegen.record import record_cgp

            event = len(game.events) if move is None else move
            return BoardText(record_cgp(game, event, options=options))
        last, _rules = position_after(game, move, options)
    except (KeyError, ValueError) as exc:  # an unknown tile set or board name, a bad file
        return BoardText(problem=f"{name}: {exc.args[0] if exc.args else exc}")
    return BoardText(position_text(game, last))
