"""Expanding the PATH... arguments of batch commands: files, directories and globs."""

from __future__ import annotations

import glob
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from gcgtools.sources.remote import expand_url, is_url

GCG_SUFFIX = ".gcg"


def expand_paths(args: Iterable[str]) -> Iterator[str]:
    """Yield files named by ``args``: a file as is, a directory's ``*.gcg`` recursively
    (sorted), a glob pattern's matches (a folder it matches is looked into). A name that
    matches nothing -- a missing file, a glob with no match, a folder with no ``*.gcg``
    file -- is yielded as is, so the caller reports it (see
    :func:`gcgtools.sources.load.load_game`) rather than silently skipping it. Each file
    is yielded once. Never raises for a strange name (too long, not UTF-8). A URL with a
    protocol (``s3://``, ``file://``, ``memory://`` ...) is listed through fsspec the same
    way (:mod:`gcgtools.sources.remote`) and its files are yielded as URLs."""
    seen: set[str] = set()
    for arg in args:
        # os.path.isdir/lexists answer False for a name the system refuses (too long)
        if is_url(arg) and not os.path.lexists(arg):  # s3://, gcs://, file://, memory://
            found = expand_url(arg, _is_gcg)
        elif os.path.isdir(arg):
            found = gcg_files(Path(arg))
        elif not os.path.lexists(arg) and glob.has_magic(arg):
            found = []
            for match in sorted(glob.glob(arg, recursive=True)):
                found.extend(gcg_files(Path(match)) if os.path.isdir(match) else [match])
        else:
            found = [arg]
        for name in found or [arg]:
            if name not in seen:
                seen.add(name)
                yield name


def _is_gcg(name: str) -> bool:
    """True if the file name's suffix (as ``Path.suffix`` reads it) is ``.gcg``, any case."""
    i = name.rfind(".")
    return 0 < i < len(name) - 1 and name[i:].lower() == GCG_SUFFIX


# Who hears what a folder's listing left out (the command line prints it on standard
# error); nobody by default, so that the library stays quiet.
_skipped_reporter: ContextVar[Callable[[str], None] | None] = ContextVar(
    "skipped_reporter", default=None
)


@contextmanager
def reporting_skipped(report: Callable[[str], None]) -> Iterator[None]:
    """While in this block, :func:`gcg_files` tells ``report`` (one line each) how many
    files of a folder it left out because they are not ``*.gcg``, and each folder once."""
    said: set[str] = set()

    def once(message: str) -> None:
        if message not in said:
            said.add(message)
            report(message)

    token = _skipped_reporter.set(once)
    try:
        yield
    finally:
        _skipped_reporter.reset(token)


def _skipped_message(folder: str, others: Counter[str]) -> str:
    total = sum(others.values())
    suffix = max(sorted(others), key=lambda k: others[k])  # the most common, first by name
    pattern = display_name(os.path.join(folder, f"*{suffix}" if suffix else "*"))
    files, verb, them = ("file", "is", "it") if total == 1 else ("files", "are", "them")
    return (
        f"skipped {total:,} {files} in {display_name(folder)} that {verb} not *{GCG_SUFFIX} "
        f"(name {them} with a glob, e.g. '{pattern}', to read {them})"
    )


def gcg_files(folder: Path) -> list[str]:
    """The ``*.gcg`` files below ``folder``, sorted, named as ``folder / ...`` gives them.
    Symbolic links to folders are not followed (as ``Path.rglob``); a symbolic link to a
    file counts, and a ``*.gcg`` link that leads nowhere (dangling, or looping) is listed
    too, so that reading it names it. A folder that cannot be read is skipped. Other
    files are counted, by suffix, for :func:`reporting_skipped`."""
    top = str(folder)
    found: list[str] = []
    others: Counter[str] = Counter()
    todo = [top]
    while todo:
        current = todo.pop()
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    _sort_entry(entry, todo, found, others)
        except OSError:
            continue
    if top == ".":  # Path(".") / "a.gcg" is "a.gcg"
        found = [name[2:] for name in found]
    report = _skipped_reporter.get()
    if others and report is not None:
        report(_skipped_message(top, others))
    return sorted(found)


def _sort_entry(
    entry: os.DirEntry[str], todo: list[str], found: list[str], others: Counter[str]
) -> None:
    """Put a folder's entry where it belongs: a folder to look into, a record, or another
    file (counted by its suffix; hidden files are not counted)."""
    try:
        if entry.is_dir(follow_symlinks=False):
            todo.append(entry.path)
        elif _is_gcg(entry.name):
            if entry.is_symlink() or entry.is_file():  # a broken link: reading names it
                found.append(entry.path)
        elif not entry.name.startswith(".") and not entry.is_dir():
            others[os.path.splitext(entry.name)[1].lower()] += 1
    except OSError:
        return


def display_name(name: str) -> str:
    """``name`` as it is shown in messages, tables and JSON: a file name whose bytes are not
    UTF-8 (read by Python as lone surrogates) gets ``\\xNN`` escapes for those bytes, so
    that it can be printed and stored; any other name is unchanged."""
    if name.isascii():
        return name
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        pass
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to
        return name.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")
