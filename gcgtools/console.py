"""The terminal: one live progress bar, and lines printed above it.

Batch functions wrap their stream of results in :func:`track`; commands print with
:func:`echo`. While a bar is showing, :func:`echo` prints through the bar's own console,
so each line lands above the bar (which is redrawn below it) and never inside it; when
the stream ends the bar is erased (it is transient). There is a bar only on a terminal
and unless asked to be quiet (:func:`show_progress`): piped output never has one.

The bar draws on standard output when standard output and standard error are the same
terminal (the usual case: findings and bar then share one stream), else on standard
error, so that a report piped to a file stays clean.

Interrupts (Ctrl-C, SIGTERM) are the terminal's too: :func:`track` counts what a command
has finished (bar or not), so that :func:`interrupted_line` can say it in one line; and a
search that can stop early with an answer (the endgame solver, a simulation) polls
:func:`stop_requested`, which :func:`stopping_on_signals` sets instead of raising.

This module sits below every layer (like :mod:`gcgtools.findings`): the analysis layer
tracks its batches here, the command line prints here. rich is imported only when a bar
or a coloured line is drawn.
"""

from __future__ import annotations

import io
import os
import re
import signal
import sys
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import IO, TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, Task
    from rich.text import Text

R = TypeVar("R")

__all__ = [
    "Tally",
    "echo",
    "echo_pieces",
    "interrupt_on_sigterm",
    "interrupted_line",
    "is_terminal",
    "safe_text",
    "show_progress",
    "stop_requested",
    "stopping_on_signals",
    "stream_console",
    "track",
    "whole_lines",
]


#: The Unicode categories shown escaped: controls (Cc), format characters (Cf: the bidi
#: overrides and isolates, the zero-width space, joiners and no-break, the BOM, the soft
#: hyphen, tags), private use (Co), surrogates (Cs), and the line and paragraph separators
#: (Zl, Zp). ``str.isprintable`` is False for each of them.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp"})


def _escape(c: str, json: bool) -> str | None:
    """How :func:`safe_text` shows the character ``c``, or None to keep it."""
    if c in "\t\n" or unicodedata.category(c) not in HIDDEN_CATEGORIES:
        return None
    code = ord(c)
    if json:
        if code > 0xFFFF:  # a surrogate pair, as JSON writes a character beyond the BMP
            high, low = divmod(code - 0x10000, 0x400)
            return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"
        return f"\\u{code:04x}"
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte (surrogateescape): the byte
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


#: the ``str.translate`` tables of ASCII text (C0 but tab and newline, DEL), text and JSON
_ASCII = {json: {c: _escape(chr(c), json) for c in (*range(0x20), 0x7F) if c not in (9, 10)}
          for json in (False, True)}  # fmt: skip
_ASCII_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def safe_text(text: str, *, json: bool = False) -> str:
    """``text`` with every character a terminal would act on, or that would not be seen,
    escaped: C0 controls (ESC, CR, BS...; tab and newline are kept), DEL and C1 as
    ``\\xNN``; lone surrogates as ``\\xNN`` (an undecodable byte) or ``\\uNNNN``; format
    characters (the bidi overrides and isolates U+202A..U+202E, U+2066..U+2069, the marks
    U+200E, U+200F, U+061C; the zero-width U+200B..U+200D, U+2060, U+FEFF; the soft hyphen
    ``\\xad``), private-use characters and the line and paragraph separators as
    ``\\uNNNN`` (``\\UNNNNNNNN`` beyond U+FFFF): every character of
    :data:`HIDDEN_CATEGORIES`. Text from a record (names, notes, titles, words, unreadable
    lines, file names) goes through this before it reaches a terminal, so that it cannot
    move the cursor, erase lines, forge output, reorder what is shown (``Ann`` + U+202E
    + ``321`` shows as ``Ann123``) or hide characters (two names that look the same).

    With ``json`` the escapes are JSON's (``\\u007f``, ``\\u202e``, a surrogate pair
    beyond U+FFFF), for a JSON document whose strings may hold such characters
    (``json.dumps`` escapes C0 only): the value is unchanged.

    >>> safe_text("Ann\\x1b[2J\\tBob\\u202e")
    'Ann\\\\x1b[2J\\tBob\\\\u202e'
    """
    if text.isprintable():  # False for every character of HIDDEN_CATEGORIES (and more)
        return text
    if text.isascii():
        return text if _ASCII_UNSAFE.search(text) is None else text.translate(_ASCII[json])
    table = {ord(c): e for c in set(text) if (e := _escape(c, json)) is not None}
    return text.translate(table) if table else text


# The bar showing now (one at a time: a batch run inside another adds no second bar).
_live: Progress | None = None


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or no such method
        return False


def is_terminal(stream: IO[str]) -> bool:
    """Whether ``stream`` writes to a terminal (False for a closed or odd stream)."""
    return _isatty(stream)


def _terminal_id(stream: IO[str]) -> tuple[int, int] | None:
    """The device of the terminal ``stream`` writes to, or None when it is no terminal."""
    if not _isatty(stream):
        return None
    try:
        st = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return (st.st_dev, st.st_rdev)


def show_progress(quiet: bool = False) -> bool:
    """A progress bar only on a terminal (standard error) and unless asked to be quiet."""
    return not quiet and _isatty(sys.stderr)


def _bar_stream() -> IO[str]:
    """Standard output when it is the same terminal as standard error, else standard error."""
    err = _terminal_id(sys.stderr)
    return sys.stdout if err is not None and _terminal_id(sys.stdout) == err else sys.stderr


def _columns() -> list[Any]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        ProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Items per second, e.g. ``1,234 games/s``."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            unit = task.fields.get("unit", "")
            if speed is None:
                return Text(f"- {unit}/s", style="progress.data.speed")
            return Text(f"{speed:,.0f} {unit}/s", style="progress.data.speed")

    return [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    ]


@dataclass(slots=True)
class Tally:
    """How far a stream of results has come: ``done`` of ``total``, counted in ``unit``
    (the results handed to the consumer: finished, and printed by the time the next one
    is asked for)."""

    total: int
    done: int = 0
    unit: str = ""
    outer: bool = True  # no other stream was being tracked when this one began


# The tallies of the streams being tracked now, outermost first (a batch of files, and
# inside it the turns of one record), and the last ones made (kept after their stream
# ended: an interrupt unwinds the stream before the command can say how far it came).
_tallies: list[Tally] = []
_recent: list[Tally] = []
RECENT = 16


def interrupted_line(finished: str, kept: str = "", unit: str | None = None) -> str:
    """The one line an interrupted command prints: ``interrupted: 3 of 8 records
    analysed; results kept for those 3``, from the last outermost stream tracked (counted
    in ``unit``, when given: ``games``, not the turns of the one game judged). ``finished``:
    what a finished item is (``records analysed``); ``kept``: what was kept of them
    (``{done}`` is their number), said only when some are finished."""
    found = [t for t in _recent if t.outer and unit in (None, t.unit)]
    if not found:
        return f"interrupted: no {finished.split(' ', 1)[0]} finished"
    tally = found[-1]
    line = f"interrupted: {tally.done} of {tally.total} {finished}"
    if kept and tally.done:
        line += "; " + kept.format(done=tally.done)
    return line


def track(
    results: Iterable[R],
    total: int,
    *,
    label: str = "games",
    enabled: bool = True,
    weight: Callable[[R], int] | None = None,
    unit: str | None = None,
) -> Iterator[R]:
    """Yield ``results`` while a progress bar counts them towards ``total``: done/total,
    rate and time remaining. Each result counts 1, or ``weight(result)`` (a batch of
    files). Nothing is drawn when ``enabled`` is false, ``total`` is 0 or a bar is already
    showing; the bar is erased when the results run out (or the consumer stops early).
    The bar reads ``label`` (``analysing``) and its rate counts ``unit`` per second
    (``games/s``; default: the label)."""
    tally = Tally(total, unit=unit or label, outer=not _tallies)
    _recent.append(tally)
    del _recent[:-RECENT]
    _tallies.append(tally)
    try:
        yield from _drawn(results, tally, label=label, enabled=enabled, weight=weight)
    finally:
        _tallies.remove(tally)


def _drawn(
    results: Iterable[R],
    tally: Tally,
    *,
    label: str,
    enabled: bool,
    weight: Callable[[R], int] | None,
) -> Iterator[R]:
    """:func:`track`'s stream, counted in ``tally``, with a bar when ``enabled``."""
    global _live
    total = tally.total
    if not enabled or total <= 0 or _live is not None:
        for result in results:
            tally.done += 1 if weight is None else weight(result)
            yield result
        return
    from rich.console import Console
    from rich.progress import Progress

    stream = _bar_stream()
    bar = Progress(
        *_columns(),
        console=Console(file=stream),
        transient=True,
        redirect_stdout=False,  # done below, in a way click.echo (typer.echo) goes through
        redirect_stderr=False,
    )
    task = bar.add_task(label, total=total, unit=tally.unit)
    saved = sys.stdout, sys.stderr
    bar.start()
    _live = bar
    if stream is sys.stdout:  # the report and the bar on one terminal: stray prints (not
        # through echo) go above the bar too
        sys.stdout = _AboveBar(bar.console, sys.stdout)  # type: ignore[assignment]
        sys.stderr = _AboveBar(bar.console, sys.stderr)  # type: ignore[assignment]
    try:
        for result in results:
            step = 1 if weight is None else weight(result)
            bar.advance(task, step)
            tally.done += step
            yield result
    finally:
        for proxy in (sys.stdout, sys.stderr):
            if isinstance(proxy, _AboveBar):
                proxy.flush()
        sys.stdout, sys.stderr = saved
        _live = None
        bar.stop()


class _AboveBar(io.TextIOBase):
    """Standard output or error while a bar shows on the same terminal: each complete line
    written is printed through the bar's console, above the bar. A text stream with no
    ``buffer``, so that ``click.echo`` writes its text here too."""

    def __init__(self, console: Console, stream: IO[str]) -> None:
        self._console = console
        self._stream = stream
        self._pending = ""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self._stream, "errors", None)

    def isatty(self) -> bool:
        return _isatty(self._stream)

    def fileno(self) -> int:
        return self._stream.fileno()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        from rich.text import Text

        lines = (self._pending + text).split("\n")
        self._pending = lines.pop()
        if lines:
            self._console.print(
                Text("\n").join(Text.from_ansi(safe_text(line)) for line in lines),
                markup=False, highlight=False, emoji=False, soft_wrap=True, crop=False,
            )  # fmt: skip
        return len(text)

    def flush(self) -> None:
        if self._pending:
            pending, self._pending = self._pending, ""
            self.write(pending + "\n")


_consoles: dict[int, tuple[IO[str], Console]] = {}


def _on_bar(stream: IO[str]) -> Console | None:
    """The live bar's console when a bar is showing on the terminal ``stream`` writes to."""
    live = _live
    if live is None:
        return None
    own = _terminal_id(stream)
    return live.console if own is not None and own == _terminal_id(live.console.file) else None


def stream_console(stream: IO[str]) -> Console:
    """A rich console writing to ``stream``: the live bar's when the bar is on the same
    terminal (so what it prints goes above the bar), else one of its own."""
    console = _on_bar(stream)
    if console is not None:
        return console
    cached = _consoles.get(id(stream))
    if cached is None or cached[0] is not stream:
        from rich.console import Console

        cached = (stream, Console(file=stream, highlight=False, emoji=False, markup=False))
        _consoles[id(stream)] = cached
    return cached[1]


def echo(text: str | Text = "", *, err: bool = False, json: bool = False) -> None:
    """Print one line (or a few) to standard output, or standard error with ``err``: above
    the progress bar while one is showing on that terminal, with the styles of a rich
    ``Text`` on a terminal, as plain text elsewhere. Long lines are never cut or wrapped
    by gcgtools (a terminal wraps them itself). Control characters are escaped
    (:func:`safe_text`; ``json`` for a JSON document, whose value stays the same)."""
    stream = sys.stderr if err else sys.stdout
    text = safe_text(text, json=json) if isinstance(text, str) else _safe_rich(text)
    console = _on_bar(stream)
    if console is None and not isinstance(text, str) and _isatty(stream):
        console = stream_console(stream)
    with whole_lines():
        if console is None:
            _write(stream, (text if isinstance(text, str) else text.plain) + "\n")
            if err:
                stream.flush()
            return
        console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True, crop=False)


def echo_pieces(pieces: Iterable[str], *, err: bool = False, json: bool = False) -> None:
    """:func:`echo` of ``"".join(pieces)``, written piece by piece (a long JSON document
    is never joined into one string)."""
    stream = sys.stderr if err else sys.stdout
    if _on_bar(stream) is not None:
        echo("".join(pieces), err=err, json=json)
        return
    with whole_lines():
        for piece in pieces:
            _write(stream, safe_text(piece, json=json))
        _write(stream, "\n")
        if err:
            stream.flush()


def _write(stream: IO[str], text: str) -> None:
    """``stream.write(text)``, all of it: an unbuffered stream (``python -u``,
    PYTHONUNBUFFERED) writes straight to its file, where a signal can cut a write to a
    full pipe short, and its text layer drops what was not written; here the rest is
    written too."""
    raw = getattr(stream, "buffer", None)
    if not isinstance(raw, io.RawIOBase):
        stream.write(text)
        return
    stream.flush()
    data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    while data:
        written = raw.write(data)
        data = data[written or 0 :]


def _safe_rich(text: Text) -> Text:
    """A rich ``Text`` with :func:`safe_text` applied, its styles kept on the same letters."""
    plain = text.plain
    if safe_text(plain) == plain:
        return text
    from rich.text import Span

    starts = [0]  # where each character of ``plain`` starts in the escaped text
    for c in plain:
        starts.append(starts[-1] + len(safe_text(c)))
    copy = text.copy()
    copy.plain = safe_text(plain)
    copy.spans = [Span(starts[s.start], starts[s.end], s.style) for s in text.spans]
    return copy


# ------------------------------------------------------------------------ interrupts
_stop = threading.Event()
#: the signals a stop is asked with: Ctrl-C, and what ``kill`` sends by default
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def status_line(quiet: bool = False) -> Iterator[Callable[[str], None] | None]:
    """A line on a terminal (standard error) that each call rewrites, gone when the
    block ends: yields the function that shows a text there, or None when standard
    error is no terminal (or ``quiet``): a pipe or a file never gets it."""
    if not show_progress(quiet):
        yield None
        return
    stream = sys.stderr

    def show(text: str) -> None:
        try:
            width = max(1, os.get_terminal_size(stream.fileno()).columns - 1)
        except (OSError, ValueError):
            width = 79
        stream.write("\r" + safe_text(text)[:width] + "\x1b[K")
        stream.flush()

    try:
        yield show
    finally:
        stream.write("\r\x1b[K")
        stream.flush()


def stop_requested() -> bool:
    """Whether Ctrl-C or SIGTERM asked the search running now to stop early (inside
    :func:`stopping_on_signals`); a search that can answer with what it found so far
    polls this (cheap: one flag)."""
    return _stop.is_set()


def _ask_stop(signum: int, frame: FrameType | None) -> None:
    if _stop.is_set():  # asked twice: stop at once
        raise KeyboardInterrupt
    _stop.set()


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """While inside, Ctrl-C (SIGINT) and SIGTERM ask the search to stop
    (:func:`stop_requested`) instead of raising KeyboardInterrupt; a second one raises it.
    Outside the main thread nothing is changed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {signum: signal.signal(signum, _ask_stop) for signum in STOP_SIGNALS}
    _stop.clear()
    try:
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        _stop.clear()


@contextmanager
def whole_lines() -> Iterator[None]:
    """While inside (a line being printed), Ctrl-C and SIGTERM wait until it is out, so
    that an interrupted command's output ends with whole lines (a JSON document cut in
    the middle would be unreadable); a second one acts at once (a reader that stopped
    reading must not make the command unstoppable). Outside the main thread, or inside
    another ``whole_lines``, nothing is changed."""
    if _held or threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        if held:  # the second: at once, to the handler that was there before
            held.clear()
            _restore(saved)
            signal.raise_signal(signum)
            return
        held.append(signum)

    saved = {signum: signal.signal(signum, hold) for signum in STOP_SIGNALS}
    _held.append(True)
    try:
        yield
    finally:
        _held.pop()
        _restore(saved)
        for signum in held[:1]:
            signal.raise_signal(signum)  # to the handler that was there before


_held: list[bool] = []


def _restore(saved: dict[int, Any]) -> None:
    for signum, handler in saved.items():
        signal.signal(signum, handler)


@contextmanager
def interrupt_on_sigterm() -> Iterator[None]:
    """While inside, SIGTERM raises KeyboardInterrupt as Ctrl-C does, so that a command
    ended by ``kill`` stops the same way (its finished results kept, one line said).
    Outside the main thread nothing is changed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, saved)
