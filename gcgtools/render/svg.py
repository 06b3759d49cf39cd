"""Pictures of the board: SVG (self-contained, structured) and PNG (through matplotlib).

:func:`board_svg` draws a :class:`~gcgtools.replay.board.Board` with the premium squares in
the classic tournament colours (triple word red, double word pink, triple letter dark blue,
double letter light blue, a star on the centre), each tile with its letter and value, blanks
with a red letter and no value, the last play highlighted and, when given, the players'
scores. Every element says what it is, so tools and tests can read the picture back::

    <rect class="square tw" data-square="1A" data-premium="TW" fill="#d9343b" .../>
    <g class="tile blank last" data-square="8H" data-letter="e" data-blank="true" ...>

Squares are named row first (``8D`` is row 8, column D). :func:`board_svg` is the renderer
behind ``Board._repr_svg_`` (which imports it when Jupyter asks for a picture), so a board
shows as a picture in Jupyter. matplotlib is imported only by :func:`board_png`.

    >>> from gcgtools.render.svg import board_svg
    >>> svg = board_svg(position.board, players=["Ann", "Bob"], scores=[74, 30])  # doctest: +SKIP
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gcgtools.model.game import Game
from gcgtools.render.markup import escape
from gcgtools.render.palette import PLAYER_COLOURS, player_colour
from gcgtools.replay.board import Board, square_name
from gcgtools.replay.notation import counts_text, event_notation, study_view, vowels_text
from gcgtools.replay.walk import Position
from gcgtools.rules.resolve import resolve
from gcgtools.rules.tiles import TILE_SETS, TileError, TileSet, resolve_tiles

__all__ = [
    "PLAYER_COLOURS",
    "PREMIUM_COLOURS",
    "Note",
    "PictureOptions",
    "TileValues",
    "board_png",
    "board_svg",
    "picture_format",
    "position_notes",
    "position_picture",
    "rack_tiles",
    "tile_svg",
    "tiles_svg",
]

TileValues = TileSet | Mapping[str, int] | str | None
"""Where tile values come from: a tile set, a mapping from tile name to points, the name of
a tile set, or None for the English set."""

PREMIUM_COLOURS = {
    "TW": "#d9343b",  # triple word: red
    "DW": "#f4aebb",  # double word: pink
    "TL": "#2763b0",  # triple letter: dark blue
    "DL": "#a6d7f2",  # double letter: light blue
    "QW": "#8a1538",  # quadruple word (Super board): dark red
    "QL": "#163a78",  # quadruple letter (Super board): navy
    "": "#e9e3cc",  # plain square
}
_LABEL_COLOURS = {"TW": "#ffffff", "TL": "#ffffff", "QW": "#ffffff", "QL": "#ffffff"}
GRID = "#ffffff"
TILE = "#f3deaa"
TILE_EDGE = "#a88a4a"
LAST_TILE = "#ffd84d"
LAST_EDGE = "#d9480f"
LETTER = "#222222"
BLANK_LETTER = "#c0262d"
STAR = "#3a3a3a"
NOTE_COLOUR = "#333333"

CELL = 40  # user units per square
MARGIN = 22  # room for the coordinates
SCORES = 34  # height of the scores band
NOTE = 20  # height of a line of notes under the scores
RACK_TILE = 30  # side of a tile of the rack shown under the board
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


# ----------------------------------------------------------------------------------- scene
@dataclass(frozen=True, slots=True)
class SquareMark:
    row: int
    col: int
    name: str
    premium: str
    fill: str
    centre: bool


@dataclass(frozen=True, slots=True)
class TileMark:
    row: int
    col: int
    name: str
    tile: str  # as on the board: lower case for a blank
    letter: str  # what is printed on it
    value: int | None  # None for a blank, or a tile the tile set does not know
    blank: bool
    last: bool


def _value_lookup(tiles: TileValues) -> Mapping[str, int] | TileSet:
    if tiles is None:
        return TILE_SETS["english"]
    if isinstance(tiles, str):
        return resolve_tiles(tiles)  # a name or a tile file
    return tiles


def _value(values: Mapping[str, int] | TileSet, tile: str) -> int | None:
    if isinstance(values, TileSet):
        try:
            return values.value(tile.upper())
        except TileError:
            return None
    return values.get(tile.upper(), values.get(tile))


def _last_squares(
    board: Board, last_play: bool | Iterable[tuple[int, int]]
) -> set[tuple[int, int]]:
    if last_play is True:
        return set(board.last_play)
    if last_play is False:
        return set()
    return set(last_play)


def squares(board: Board) -> list[SquareMark]:
    """Every square of the board with its premium and colour."""
    layout = board.layout
    centre = layout.centre
    return [
        SquareMark(
            r,
            c,
            square_name(r, c),
            layout.premium(r, c),
            PREMIUM_COLOURS.get(layout.premium(r, c), PREMIUM_COLOURS[""]),
            (r, c) == centre,
        )
        for r in range(board.size)
        for c in range(board.size)
    ]


def tile_marks(
    board: Board, tiles: TileValues = None, last_play: bool | Iterable[tuple[int, int]] = True
) -> list[TileMark]:
    """Every tile on the board: letter, value (None for blanks), blank and last-play flags."""
    values = _value_lookup(tiles)
    last = _last_squares(board, last_play)
    out = []
    for r, c, tile in board.tiles():
        blank = tile != tile.upper() or tile == "?"
        out.append(
            TileMark(
                r,
                c,
                square_name(r, c),
                tile,
                tile.upper(),
                None if blank else _value(values, tile),
                blank,
                (r, c) in last,
            )
        )
    return out


def _star(cx: float, cy: float, outer: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * 0.42
        angle = math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    return points


def _xy(row: int, col: int, coordinates: bool) -> tuple[float, float]:
    offset = MARGIN if coordinates else 0
    return offset + col * CELL, offset + row * CELL


def _players(
    players: Sequence[str] | None, scores: Sequence[int] | None
) -> list[tuple[str, int | None]]:
    if players is None and scores is None:
        return []
    n = max(len(players or ()), len(scores or ()))
    out = []
    for i in range(n):
        name = players[i] if players is not None and i < len(players) else f"player {i + 1}"
        score = scores[i] if scores is not None and i < len(scores) else None
        out.append((name, score))
    return out


def _geometry(
    board: Board, coordinates: bool, band: bool, notes: Sequence[Note] = ()
) -> tuple[float, float]:
    side = board.size * CELL + (MARGIN if coordinates else 0) + 4
    below = sum(_note_height(n) for n in notes) + (6 if notes else 0)
    return side, side + (SCORES if band else 0) + below


def _note_height(note: Note) -> float:
    return RACK_TILE + 6 if note.tiles else NOTE


def _note_rows(
    board: Board, notes: Sequence[Note], band: bool, coordinates: bool
) -> Iterator[tuple[Note, float, float]]:
    """Each note with the top and the height of its line."""
    y = _geometry(board, coordinates, band)[1] + 4
    for note in notes:
        height = _note_height(note)
        yield note, y, height
        y += height


@dataclass(frozen=True, slots=True)
class Note:
    """A line under the board: its ``kind`` (the SVG class: ``move``, ``to-move``,
    ``rack``, ``unseen``, ``unseen-counts``), its text and colour (None: dark grey).
    A note with ``tiles`` (a rack: tile texts, ``?`` for a blank) draws them as tiles
    with their ``values`` (None for a blank) instead of its text."""

    kind: str
    text: str
    colour: str | None = None
    tiles: tuple[str, ...] = ()
    values: tuple[int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class PictureOptions:
    """How a board picture is drawn (:func:`board_svg`, :func:`board_png`): ``size``
    pixels wide, the tile values from ``tiles`` (a :class:`TileSet`, a ``{tile: points}``
    mapping, a tile set name; default English), the board's last play highlighted
    (``last_play``: or the squares given), with the ``coordinates`` around it, a band with
    each of the ``players`` and their ``scores`` under the board, and ``notes`` under that
    (the player to move, the rack, the unseen tiles: see :func:`position_notes`)."""

    players: Sequence[str] | None = None
    scores: Sequence[int] | None = None
    last_play: bool | Iterable[tuple[int, int]] = True
    size: int = 600
    tiles: TileValues = None
    coordinates: bool = True
    notes: Sequence[Note] = ()


# ------------------------------------------------------------------------------------- SVG
def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def tiles_svg(
    board: Board,
    *,
    tiles: TileValues = None,
    last_play: bool | Iterable[tuple[int, int]] = True,
    coordinates: bool = True,
) -> str:
    """The ``<g class="tiles">`` layer of :func:`board_svg` on its own (for the HTML report,
    which swaps it from move to move over one drawing of the squares)."""
    marks = tile_marks(board, tiles, last_play)
    return '<g class="tiles">' + "".join(tile_svg(t, coordinates) for t in marks) + "</g>"


def tile_svg(t: TileMark, coordinates: bool = True) -> str:
    """One tile of the ``tiles`` layer: a ``<g class="tile">`` group at its square."""
    x, y = _xy(t.row, t.col, coordinates)
    classes = "tile" + (" blank" if t.blank else "") + (" last" if t.last else "")
    value_attr = f' data-value="{t.value}"' if t.value is not None else ""
    parts = [
        f'<g class="{classes}" data-square="{t.name}" data-letter="{escape(t.tile)}"'
        f' data-blank="{str(t.blank).lower()}"{value_attr}>',
        f'<rect x="{_fmt(x + 1)}" y="{_fmt(y + 1)}" width="{CELL - 2}" height="{CELL - 2}"'
        f' rx="4" fill="{LAST_TILE if t.last else TILE}"'
        f' stroke="{LAST_EDGE if t.last else TILE_EDGE}"'
        f' stroke-width="{2.5 if t.last else 1}"/>',
    ]
    size = 22 if len(t.letter) == 1 else 30 / len(t.letter)
    parts.append(
        f'<text class="letter" x="{_fmt(x + CELL / 2 - (3 if t.value is not None else 0))}"'
        f' y="{_fmt(y + CELL / 2 + 1)}" font-size="{_fmt(size)}" font-weight="bold"'
        f' text-anchor="middle" dominant-baseline="central"'
        f' fill="{BLANK_LETTER if t.blank else LETTER}">{escape(t.letter)}</text>'
    )
    if t.value is not None:
        parts.append(
            f'<text class="value" x="{_fmt(x + CELL - 5)}" y="{_fmt(y + CELL - 5)}"'
            f' font-size="9" text-anchor="end" fill="{LETTER}">{t.value}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def scores_svg(
    board: Board,
    players: Sequence[str] | None,
    scores: Sequence[int] | None,
    coordinates: bool = True,
) -> str:
    """The ``<g class="scores">`` band under the board ("" when there is nothing to show)."""
    entries = _players(players, scores)
    if not entries:
        return ""
    width, height = _geometry(board, coordinates, True)
    y = height - SCORES / 2
    step = width / len(entries)
    parts = ['<g class="scores">']
    for i, (name, score) in enumerate(entries):
        label = f"{name} {score}" if score is not None else name
        score_attr = f' data-score="{score}"' if score is not None else ""
        parts.append(
            f'<text class="score" data-player="{i + 1}"{score_attr} x="{_fmt(step * (i + 0.5))}"'
            f' y="{_fmt(y)}" font-size="16" font-weight="bold" text-anchor="middle"'
            f' dominant-baseline="central" fill="{player_colour(i)}">'
            f"{escape(label)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def _rack_tile_svg(x: float, y: float, tile: str, value: int | None) -> str:
    blank = value is None
    size = 18 if len(tile) == 1 else 24 / len(tile)
    parts = [
        f'<g class="rack-tile{" blank" if blank else ""}" data-letter="{escape(tile)}">',
        f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{RACK_TILE}" height="{RACK_TILE}" rx="4"'
        f' fill="{TILE}" stroke="{TILE_EDGE}" stroke-width="1"/>',
        f'<text x="{_fmt(x + RACK_TILE / 2 - (2 if not blank else 0))}"'
        f' y="{_fmt(y + RACK_TILE / 2 + 1)}" font-size="{_fmt(size)}" font-weight="bold"'
        f' text-anchor="middle" dominant-baseline="central"'
        f' fill="{BLANK_LETTER if blank else LETTER}">{escape(tile)}</text>',
    ]
    if not blank:
        parts.append(
            f'<text x="{_fmt(x + RACK_TILE - 3)}" y="{_fmt(y + RACK_TILE - 4)}" font-size="8"'
            f' text-anchor="end" fill="{LETTER}">{value}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def notes_svg(board: Board, notes: Sequence[Note], band: bool, coordinates: bool = True) -> str:
    """The ``<g class="notes">`` lines under the board and its scores band."""
    if not notes:
        return ""
    x0 = MARGIN if coordinates else 4
    parts = ['<g class="notes">']
    for note, top, height in _note_rows(board, notes, band, coordinates):
        if note.tiles:
            parts.append(f'<g class="note {escape(note.kind)}" data-rack="{escape(note.text)}">')
            for i, (tile, value) in enumerate(zip(note.tiles, note.values, strict=True)):
                parts.append(_rack_tile_svg(x0 + i * (RACK_TILE + 4), top + 2, tile, value))
            parts.append("</g>")
            continue
        weight = ' font-weight="bold"' if note.kind == "to-move" else ""
        parts.append(
            f'<text class="note {escape(note.kind)}" x="{_fmt(x0)}"'
            f' y="{_fmt(top + height / 2)}" font-size="13"{weight} dominant-baseline="central"'
            f' fill="{note.colour or NOTE_COLOUR}">{escape(note.text)}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _picture(picture: PictureOptions | None, keywords: PictureOptions) -> PictureOptions:
    """``picture``, or the options its fields given as keywords make; TypeError for a
    ``picture`` and keywords that say otherwise."""
    if picture is None:
        return keywords
    if keywords != PictureOptions():
        raise TypeError("give either picture= or its fields as keywords, not both")
    return picture


def board_svg(
    board: Board,
    picture: PictureOptions | None = None,
    *,
    players: Sequence[str] | None = None,
    scores: Sequence[int] | None = None,
    last_play: bool | Iterable[tuple[int, int]] = True,
    size: int = 600,
    tiles: TileValues = None,
    coordinates: bool = True,
    notes: Sequence[Note] = (),
) -> str:
    """The board as an SVG document (a string), drawn as ``picture`` says (a
    :class:`PictureOptions`; without it, as its fields given as keywords say; TypeError
    for both)."""
    o = _picture(picture, PictureOptions(players, scores, last_play, size, tiles, coordinates,
                                         notes))  # fmt: skip
    players, scores, last_play, size = o.players, o.scores, o.last_play, o.size
    tiles, coordinates, notes = o.tiles, o.coordinates, o.notes
    band = bool(_players(players, scores))
    width, height = _geometry(board, coordinates, band, notes)
    px_height = round(size * height / width)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gcg-board"'
        f' viewBox="0 0 {_fmt(width)} {_fmt(height)}" width="{size}" height="{px_height}"'
        f' data-size="{board.size}" data-layout="{escape(board.layout.name)}"'
        f' font-family="{FONT}">',
        f'<rect class="background" x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}"'
        ' fill="#ffffff"/>',
    ]
    if coordinates:
        parts.append('<g class="coordinates">')
        for c in range(board.size):
            parts.append(
                f'<text class="coord col" data-col="{chr(65 + c)}"'
                f' x="{_fmt(MARGIN + c * CELL + CELL / 2)}" y="{_fmt(MARGIN / 2)}" font-size="12"'
                f' text-anchor="middle" dominant-baseline="central" fill="#555555">'
                f"{chr(65 + c)}</text>"
            )
        for r in range(board.size):
            parts.append(
                f'<text class="coord row" data-row="{r + 1}" x="{_fmt(MARGIN / 2)}"'
                f' y="{_fmt(MARGIN + r * CELL + CELL / 2)}" font-size="12" text-anchor="middle"'
                f' dominant-baseline="central" fill="#555555">{r + 1}</text>'
            )
        parts.append("</g>")
    parts.append('<g class="squares">')
    for sq in squares(board):
        x, y = _xy(sq.row, sq.col, coordinates)
        classes = "square" + (f" {sq.premium.lower()}" if sq.premium else "")
        classes += " centre" if sq.centre else ""
        premium_attr = f' data-premium="{sq.premium}"' if sq.premium else ""
        parts.append(
            f'<rect class="{classes}" data-square="{sq.name}"{premium_attr} x="{_fmt(x)}"'
            f' y="{_fmt(y)}" width="{CELL}" height="{CELL}" fill="{sq.fill}" stroke="{GRID}"'
            ' stroke-width="1.5"/>'
        )
        if sq.centre:
            points = " ".join(
                f"{_fmt(px)},{_fmt(py)}" for px, py in _star(x + CELL / 2, y + CELL / 2, 13)
            )
            parts.append(
                f'<polygon class="star" data-square="{sq.name}" points="{points}" fill="{STAR}"/>'
            )
        elif sq.premium:
            parts.append(
                f'<text class="premium-label" data-square="{sq.name}" x="{_fmt(x + CELL / 2)}"'
                f' y="{_fmt(y + CELL / 2)}" font-size="11" text-anchor="middle"'
                f' dominant-baseline="central"'
                f' fill="{_LABEL_COLOURS.get(sq.premium, "#333333")}">{sq.premium}</text>'
            )
    parts.append("</g>")
    parts.append(tiles_svg(board, tiles=tiles, last_play=last_play, coordinates=coordinates))
    if band:
        parts.append(scores_svg(board, players, scores, coordinates))
    parts.append(notes_svg(board, notes, band, coordinates))
    parts.append("</svg>")
    return "".join(parts)


# ------------------------------------------------------------------------------------- PNG
def board_png(
    board: Board,
    picture: PictureOptions | None = None,
    *,
    players: Sequence[str] | None = None,
    scores: Sequence[int] | None = None,
    last_play: bool | Iterable[tuple[int, int]] = True,
    size: int = 600,
    tiles: TileValues = None,
    coordinates: bool = True,
    notes: Sequence[Note] = (),
) -> bytes:
    """The same picture as :func:`board_svg`, drawn with matplotlib, as PNG bytes."""
    o = _picture(picture, PictureOptions(players, scores, last_play, size, tiles, coordinates,
                                         notes))  # fmt: skip
    players, scores, last_play, size = o.players, o.scores, o.last_play, o.size
    tiles, coordinates, notes = o.tiles, o.coordinates, o.notes
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    band = bool(_players(players, scores))
    width, height = _geometry(board, coordinates, band, notes)
    dpi = 100
    fig = Figure(figsize=(size / dpi, size * height / width / dpi), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    painter = _PngPainter(ax, pt=size / width * 72 / dpi)  # points per user unit
    if coordinates:
        painter.coordinates(board.size)
    painter.squares(board, coordinates)
    painter.tiles(board, tiles, last_play, coordinates)
    entries = _players(players, scores)
    painter.scores(entries, width, _geometry(board, coordinates, True)[1] - SCORES / 2)
    x0 = MARGIN if coordinates else 4
    for note, top, line in _note_rows(board, notes, band, coordinates):
        painter.note(note, x0, top, line)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=dpi, facecolor="white")
    return out.getvalue()


class _PngPainter:
    """Draws the parts of :func:`board_png` on matplotlib axes whose units are the SVG's."""

    def __init__(self, ax: Any, pt: float) -> None:
        self.ax = ax
        self.pt = pt  # points per user unit, for font sizes and line widths

    def text(self, x: float, y: float, label: str, font: float, **style: object) -> None:
        style = {"ha": "center", "va": "center", **style}
        self.ax.text(x, y, label, fontsize=font * self.pt, **style)

    def box(
        self, x: float, y: float, side: float, face: str, edge: str, line: float, zorder: int
    ) -> None:
        from matplotlib.patches import FancyBboxPatch

        patch = FancyBboxPatch(
            (x, y), side, side, boxstyle="round,pad=1,rounding_size=4",
            facecolor=face, edgecolor=edge, zorder=zorder,
        )  # fmt: skip
        patch.set_linewidth(line * self.pt)
        self.ax.add_patch(patch)

    def coordinates(self, size: int) -> None:
        for c in range(size):
            self.text(MARGIN + c * CELL + CELL / 2, MARGIN / 2, chr(65 + c), 12, color="#555555")
        for r in range(size):
            self.text(MARGIN / 2, MARGIN + r * CELL + CELL / 2, str(r + 1), 12, color="#555555")

    def squares(self, board: Board, coordinates: bool) -> None:
        from matplotlib.patches import Polygon, Rectangle

        for sq in squares(board):
            x, y = _xy(sq.row, sq.col, coordinates)
            square = Rectangle((x, y), CELL, CELL, facecolor=sq.fill, edgecolor=GRID, zorder=1)
            square.set_linewidth(1.5 * self.pt)
            self.ax.add_patch(square)
            if sq.centre:
                star = Polygon(_star(x + CELL / 2, y + CELL / 2, 13), facecolor=STAR, zorder=2)
                self.ax.add_patch(star)
            elif sq.premium:
                colour = _LABEL_COLOURS.get(sq.premium, "#333333")
                self.text(x + CELL / 2, y + CELL / 2, sq.premium, 11, color=colour, zorder=2)

    def tiles(
        self,
        board: Board,
        tiles: TileValues,
        last_play: bool | Iterable[tuple[int, int]],
        coordinates: bool,
    ) -> None:
        for t in tile_marks(board, tiles, last_play):
            x, y = _xy(t.row, t.col, coordinates)
            face, edge = (LAST_TILE, LAST_EDGE) if t.last else (TILE, TILE_EDGE)
            self.box(x + 2, y + 2, CELL - 4, face, edge, 2.5 if t.last else 1, zorder=3)
            font = 22 if len(t.letter) == 1 else 30 / len(t.letter)
            colour = BLANK_LETTER if t.blank else LETTER
            shift = 3 if t.value is not None else 0
            self.text(
                x + CELL / 2 - shift, y + CELL / 2 + 1, t.letter, font,
                color=colour, fontweight="bold", zorder=4,
            )  # fmt: skip
            if t.value is not None:
                self.text(
                    x + CELL - 5, y + CELL - 5, str(t.value), 9,
                    ha="right", va="baseline", color=LETTER, zorder=4,
                )  # fmt: skip

    def scores(self, entries: list[tuple[str, int | None]], width: float, y: float) -> None:
        for i, (name, score) in enumerate(entries):
            label = f"{name} {score}" if score is not None else name
            x = width / len(entries) * (i + 0.5)
            self.text(x, y, label, 16, color=player_colour(i), fontweight="bold")

    def note(self, note: Note, x0: float, top: float, line: float) -> None:
        if not note.tiles:
            self.text(
                x0, top + line / 2, note.text, 13, ha="left", color=note.colour or NOTE_COLOUR,
                fontweight="bold" if note.kind == "to-move" else "normal",
            )  # fmt: skip
            return
        for i, (letter, value) in enumerate(zip(note.tiles, note.values, strict=True)):
            x, y = x0 + i * (RACK_TILE + 4), top + 2
            self.box(x + 1, y + 1, RACK_TILE - 2, TILE, TILE_EDGE, 1, zorder=1)
            blank = value is None
            font = 18 if len(letter) == 1 else 24 / len(letter)
            self.text(
                x + RACK_TILE / 2 - (0 if blank else 2), y + RACK_TILE / 2 + 1, letter, font,
                color=BLANK_LETTER if blank else LETTER, fontweight="bold",
            )  # fmt: skip
            if not blank:
                self.text(
                    x + RACK_TILE - 3, y + RACK_TILE - 4, str(value), 8,
                    ha="right", va="baseline", color=LETTER,
                )  # fmt: skip


# ------------------------------------------------------------------------- game positions
def _player_names(game: Game, count: int) -> list[str]:
    names = []
    for i in range(count):
        player = game.player(i)
        names.append(player.nick if player is not None else f"player {i + 1}")
    return names


def position_picture(
    game: Game,
    pos: Position,
    *,
    fmt: str = "svg",
    tiles: TileValues = None,
    size: int = 600,
) -> bytes:
    """The board after ``pos`` with the players' recorded scores, as SVG or PNG bytes.

    Without ``tiles`` the values come from the tile set the record implies."""
    values = tiles if tiles is not None else resolve(game).tiles
    count = game.player_count(minimum=0)
    scores = pos.recorded[:count] if count else None
    players = _player_names(game, count) if count else None
    tileset = values if isinstance(values, TileSet) else pos.board.tileset
    notes = position_notes(game, pos, tileset)
    drawn = PictureOptions(players, scores, size=size, tiles=values, notes=notes)
    if fmt == "png":
        return board_png(pos.board, drawn)
    if fmt != "svg":
        raise ValueError(f"unknown picture format {fmt!r}: use svg or png")
    return board_svg(pos.board, drawn).encode("utf-8")


def rack_tiles(rack: str, tileset: TileSet | None) -> list[tuple[str, int | None]]:
    """A rack as its tiles with their values (a blank ``?``: None), split by the tile set
    (``[CH]`` style multi-letter tiles stay one tile)."""
    try:
        tiles = tileset.split(rack) if tileset is not None else list(rack)
    except TileError:
        tiles = list(rack)
    values = tileset or TILE_SETS["english"]
    return [(t, None) if t == "?" else (t.upper(), _value(values, t)) for t in tiles]


def _rack_note(rack: str, tileset: TileSet | None) -> Note:
    """The rack as a line of tiles (blanks ``?`` with no value)."""
    pairs = rack_tiles(rack, tileset)
    return Note("rack", rack, tiles=tuple(t for t, _ in pairs), values=tuple(v for _, v in pairs))


def _wrap(items: list[str], width: int) -> list[str]:
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 1 + len(item) <= width:
            lines[-1] += " " + item
        else:
            lines.append(item)
    return lines


def position_notes(game: Game, pos: Position, tileset: TileSet | None = None) -> list[Note]:
    """What a study viewer shows under the board after ``pos``: the last move (event
    number, player, ``COORD WORD`` with played-through letters in parentheses, score), who
    is to move and their rack, and the unseen tiles counted per letter from the view of
    the player to move, with the vowels and consonants among them."""
    view = study_view(game, pos, tileset)
    names = _player_names(game, max(len(pos.recorded), 1))
    notes = []
    e = pos.event
    if e is not None:
        who = names[pos.player] if pos.player is not None and pos.player < len(names) else e.nick
        notes.append(
            Note("move", f"event {pos.number}: {who} {event_notation(e, pos)} {e.score:+d}")
        )
    if view.to_move is not None:
        rack = f", rack {view.rack}" if view.rack else ", rack not recorded"
        colour = player_colour(view.to_move)
        notes.append(Note("to-move", f"{names[view.to_move]} to move{rack}", colour))
        if view.rack:
            notes.append(_rack_note(view.rack, tileset or pos.board.tileset))
    elif pos.game_over:
        notes.append(Note("to-move", f"game over ({pos.end_reason or 'ended'})"))
    whose = f" ({names[view.view]}'s view)" if view.view is not None else ""
    vowels = vowels_text(view.unseen, tileset)
    head = f"unseen {view.count}{whose}, bag {pos.bag}" + (f": {vowels}" if vowels else "")
    notes.append(Note("unseen", head))
    if view.count:
        items = counts_text(view.unseen).split(" ")
        width = max(40, int(pos.board.size * CELL / 8.8))  # characters that fit a line
        notes += [Note("unseen-counts", line) for line in _wrap(items, width)]
    return notes


def picture_format(target: str | None) -> str:
    """``"png"`` for a file name ending in ``.png``, ``"svg"`` for ``.svg``, ``-`` or None
    (standard output). Raises ValueError for any other suffix."""
    if target is None or target == "-":
        return "svg"
    suffix = target.rsplit(".", 1)[-1].lower() if "." in target else ""
    if suffix in ("svg", "png"):
        return suffix
    raise ValueError(f"cannot tell the picture format of {target!r}: name a .svg or .png file")
