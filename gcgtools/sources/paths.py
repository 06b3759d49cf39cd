"""Expanding the PATH... arguments of batch commands: files, directories and globs."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
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


def gcg_files(folder: Path) -> list[str]:
    """The ``*.gcg`` files below ``folder``, sorted, named as ``folder / ...`` gives them.
    Symbolic links to folders are not followed (as ``Path.rglob``); a symbolic link to a
    file counts. A folder that cannot be read is skipped."""
    top = str(folder)
    found: list[str] = []
    todo = [top]
    while todo:
        current = todo.pop()
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            todo.append(entry.path)
                        elif _is_gcg(entry.name) and entry.is_file():
                            found.append(entry.path)
                    except OSError:
                        continue
        except OSError:
            continue
    if top == ".":  # Path(".") / "a.gcg" is "a.gcg"
        found = [name[2:] for name in found]
    return sorted(found)


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
