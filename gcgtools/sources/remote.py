"""Records behind fsspec URLs (``s3://``, ``gcs://``, ``file://``, ``memory://`` ...).

A PATH argument with a protocol (``s3://bucket/archive/``, ``gcs://b/**/*.gcg``) is
listed through `fsspec <https://filesystem-spec.readthedocs.io/>`_: a folder is searched
recursively for ``*.gcg``, a glob is matched, and every file becomes a URL of its own. The
process that expands the arguments only lists the archive; whoever analyses a file (a
worker process, a Dask worker on another machine) reads it itself with :func:`read_url`.

fsspec is optional (it comes with ``pip install 'gcgtools[dask]'``); the protocols
beyond ``file``/``memory`` need their own packages (``s3fs``, ``gcsfs``, ...).
"""

from __future__ import annotations

import errno
import glob
import os
import re
from typing import Any

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*(::[A-Za-z][A-Za-z0-9+.\-]*)*://")
INSTALL_HINT = "reading URLs needs fsspec: pip install 'gcgtools[dask]'"


def is_url(name: str) -> bool:
    """True for a name with a protocol, such as ``s3://bucket/a.gcg``."""
    return _URL.match(name) is not None


def _fs(url: str) -> tuple[Any, str]:
    try:
        from fsspec.core import url_to_fs
    except ImportError as exc:
        raise OSError(INSTALL_HINT) from exc
    try:
        return url_to_fs(url)  # type: ignore[no-any-return]
    except (ImportError, ValueError) as exc:  # unknown protocol, its package missing
        raise OSError(str(exc)) from exc


def expand_url(url: str, is_gcg: Any) -> list[str]:
    """The files a URL names: itself, the ``*.gcg`` files below a folder (sorted), or a
    glob's matches (a folder it matches is searched too). A URL that names nothing (or
    cannot be listed) is given back as it is, for the reader to report."""
    try:
        fs, path = _fs(url)
        if glob.has_magic(path):
            found: list[str] = []
            for match in sorted(fs.glob(path)):
                if fs.isdir(match):
                    found.extend(_below(fs, match, is_gcg))
                else:
                    found.append(fs.unstrip_protocol(match))
            return found
        if fs.isdir(path):
            return _below(fs, path, is_gcg)
    except OSError:
        pass
    return [url]


def _below(fs: Any, folder: str, is_gcg: Any) -> list[str]:
    return [fs.unstrip_protocol(p) for p in sorted(fs.find(folder)) if is_gcg(p.rsplit("/", 1)[-1])]


def read_url(url: str) -> bytes:
    """The bytes of the file at ``url``. Raises OSError when it cannot be read (also
    for an unknown protocol or a missing fsspec)."""
    fs, path = _fs(url)
    try:
        data: bytes = fs.cat_file(path)
    except FileNotFoundError as exc:
        if exc.strerror:
            raise
        # remote stores raise it with the path alone: give it the usual reason
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), url) from exc
    except OSError:
        raise
    except Exception as exc:  # noqa: BLE001 - remote stores raise their own errors
        raise OSError(f"{type(exc).__name__}: {exc}") from exc
    return data
