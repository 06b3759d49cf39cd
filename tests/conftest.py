"""Shared test helpers: the location of the shared GCG corpus.

The corpus of real game records is found only through the environment variable
``GCGTOOLS_CORPUS`` (CI sets it to ``../shared/corpus``). A relative value is taken from
the current directory, or failing that from the project root.

* Unset: every test that needs the corpus is skipped, with :data:`SKIP_REASON`.
* Set, but the folder is missing or has no ``valid/`` subfolder: those tests fail.

Call the helpers (:func:`corpus_dir`, :func:`valid_files`, :func:`expected_invalid`, ...)
inside a test body so that a broken setting shows up as a failed test; the fixtures of the
same names are there for convenience, but a failure inside a fixture is reported by pytest
as an error of the test's setup rather than as a failure.

Test parametrization happens at collection time, before any test runs, so
:func:`valid_file_params` never skips or fails: when the corpus cannot be used it returns a
single placeholder (``None``) and the test's call to :func:`corpus_dir` skips or fails it.
"""

from __future__ import annotations

import csv
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

# A shell starts a background job (``python3 -m pytest &``) with Ctrl-C ignored, and every
# process it starts inherits that: Python then installs no KeyboardInterrupt handler, and
# the tests of what Ctrl-C does fail (their commands never stop). The tests run with
# Ctrl-C as a terminal gives it, wherever they are started from.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _pure_switch_read_again() -> Iterator[None]:
    """After each test, the pure-Python switch as the environment now says: a test that
    set ``GCGTOOLS_PURE_PYTHON`` and ran a command (which reads the switch) left the C
    helper off for every test after it once monkeypatch had put the variable back (a
    whole run's later tests in pure Python, the C comparison tests failing)."""
    yield
    from gcgtools.movegen.core import read_pure_switch

    read_pure_switch()


CORPUS_ENV = "GCGTOOLS_CORPUS"
SKIP_REASON = "GCGTOOLS_CORPUS is not set; set it to the shared corpus folder to run corpus tests"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
EXPECTED_TSV = "invalid/EXPECTED.tsv"


def _resolve(value: str) -> Path:
    path = Path(value).expanduser()
    if path.is_absolute() or path.exists():
        return path
    from_root = PROJECT_ROOT / path
    return from_root if from_root.exists() else path


def corpus_problem() -> tuple[Path | None, str | None]:
    """``(path, None)`` when the corpus is usable, else ``(None, reason)``.

    The reason is :data:`SKIP_REASON` when the variable is unset, and a failure message
    otherwise. Never skips or fails by itself (safe at collection time).
    """
    value = os.environ.get(CORPUS_ENV, "").strip()
    if not value:
        return None, SKIP_REASON
    path = _resolve(value)
    if not path.is_dir():
        return None, (
            f"{CORPUS_ENV}={value!r} does not name an existing folder "
            f"(looked for {path.resolve()}); point it at the shared corpus folder, "
            "the one holding valid/ and invalid/"
        )
    if not (path / "valid").is_dir():
        return None, (
            f"{CORPUS_ENV}={value!r} ({path.resolve()}) has no valid/ subfolder; "
            "point it at the shared corpus folder, the one holding valid/ and invalid/"
        )
    return path, None


def corpus_dir() -> Path:
    """The corpus folder. Skips the calling test if the variable is unset; fails it if the
    variable names no folder, or a folder without ``valid/``."""
    path, reason = corpus_problem()
    if path is None:
        assert reason is not None
        if reason == SKIP_REASON:
            pytest.skip(reason)
        pytest.fail(reason, pytrace=False)
    return path


def _valid_paths(root: Path) -> list[Path]:
    return sorted((root / "valid").rglob("*.gcg"))


def valid_files() -> list[Path]:
    """Every ``*.gcg`` under ``valid/`` (recursively), sorted. Fails if there are none."""
    files = _valid_paths(corpus_dir())
    if not files:
        pytest.fail(f"no *.gcg file under {corpus_dir() / 'valid'}", pytrace=False)
    return files


def valid_file(relative: str | None) -> Path:
    """``valid/<relative>`` of the corpus (skips or fails like :func:`corpus_dir`)."""
    root = corpus_dir()
    if relative is None:  # placeholder from valid_file_params()
        valid_files()  # fails when valid/ holds no file
        pytest.fail("the corpus became usable after collection; run pytest again")
    return root / "valid" / relative


def invalid_file(relative: str) -> Path:
    """``invalid/<relative>`` of the corpus; fails if the file is not there."""
    path = corpus_dir() / "invalid" / relative
    if not path.is_file():
        pytest.fail(f"corpus file {path} is missing", pytrace=False)
    return path


def expected_invalid() -> list[dict[str, str]]:
    """The rows of ``invalid/EXPECTED.tsv`` as dicts keyed by its header
    (``filename``, ``expected_error_per_peer_test``, ``test_source``)."""
    path = corpus_dir() / EXPECTED_TSV
    if not path.is_file():
        pytest.fail(f"{path} is missing", pytrace=False)
    with path.open(encoding="utf-8", newline="") as fh:
        return [dict(row) for row in csv.DictReader(fh, delimiter="\t")]


def valid_file_params() -> list[object]:
    """``pytest.param`` per valid file with its path relative to ``valid/`` as value and id.

    For ``@pytest.mark.parametrize``; pass the value to :func:`valid_file` in the test."""
    root, _ = corpus_problem()
    if root is None:
        return [pytest.param(None, id="corpus-unavailable")]
    files = _valid_paths(root)
    if not files:
        return [pytest.param(None, id="corpus-has-no-valid-files")]
    params: list[object] = []
    for path in files:
        rel = path.relative_to(root / "valid").as_posix()
        params.append(pytest.param(rel, id=rel))
    return params


# ------------------------------------------------------------------ fixtures
@pytest.fixture(name="corpus_dir")
def corpus_dir_fixture() -> Path:
    return corpus_dir()


@pytest.fixture(name="valid_files")
def valid_files_fixture() -> list[Path]:
    return valid_files()


@pytest.fixture(name="expected_invalid")
def expected_invalid_fixture() -> list[dict[str, str]]:
    return expected_invalid()


@pytest.fixture(autouse=True, scope="session")
def _private_gcgtools_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests never write to the user's cache folder: ``GCGTOOLS_CACHE_DIR`` (compiled
    lexicons, cached results) points to a temporary folder for the whole session; a test
    may still point it elsewhere with ``monkeypatch``."""
    patch = pytest.MonkeyPatch()
    patch.setenv("GCGTOOLS_CACHE_DIR", str(tmp_path_factory.mktemp("gcgtools-cache")))
    yield
    patch.undo()


@pytest.fixture
def private_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A test's own cache folder: nothing cached by another test (or by an earlier
    version of the code) is ever read."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GCGTOOLS_CACHE_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def lexicon() -> object:
    """The ENABLE lexicon of the shared data, loaded once (for tests marked needs_data)."""
    from support.reference_data import DATA

    from gcgtools.lexicon import load_lexicon

    assert DATA is not None
    return load_lexicon(DATA / "lexica" / "ENABLE.kwg")


@pytest.fixture(scope="session")
def leaves() -> object:
    """The CSW21 leave values of the shared data, loaded once (for tests marked needs_data)."""
    from support.reference_data import DATA

    from gcgtools.lexicon import load_leaves

    assert DATA is not None
    return load_leaves(DATA / "lexica" / "CSW21.klv2")


def pytest_configure(config: pytest.Config) -> None:
    """A ``GCGTOOLS_DATA`` that names no folder stops the run at once (as a wrong
    ``GCGTOOLS_CORPUS`` fails the corpus tests): the data tests would otherwise all be
    skipped as if it were unset."""
    value = os.environ.get("GCGTOOLS_DATA", "").strip()
    if value and not Path(value).expanduser().is_dir():
        raise pytest.UsageError(
            f"GCGTOOLS_DATA={value!r} does not name an existing folder; point it at the "
            "shared data folder (the one holding lexica/ and wordlists/), or unset it"
        )
