"""Installing gcgtools in fresh virtual environments (slow: each builds the package).

Without a C compiler ``pip install .`` still succeeds and the move generator runs in pure
Python, which ``gcgtools --version`` says, and the first analysis says once how to get
the C helper. These tests run when ``GCGTOOLS_INSTALL_TESTS=1``, which ``.ci/run`` sets,
so in CI they always run; locally they are skipped unless asked for.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENABLE = "GCGTOOLS_INSTALL_TESTS"

pytestmark = pytest.mark.skipif(
    os.environ.get(ENABLE) != "1", reason=f"installs in fresh venvs: set {ENABLE}=1 (CI does)"
)

# a compiler that always fails, for every step setuptools may run
NO_COMPILER = {"CC": "false", "CXX": "false", "LDSHARED": "false", "LDCXXSHARED": "false"}
# never copied: earlier builds (a compiled helper in build/ would be reused), environments
SKIP = shutil.ignore_patterns(
    ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", "*.so", ".*_cache", "out"
)


def fresh_venv(where: Path) -> Path:
    """A venv that sees this interpreter's installed packages (the dependencies) through a
    .pth file, so only gcgtools itself is built and installed (``--no-deps``)."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    python = where / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    return python


def test_without_a_compiler_the_install_succeeds_with_the_pure_python_generator(
    tmp_path: Path,
) -> None:
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=SKIP)
    python = fresh_venv(tmp_path / "venv")
    env = {**os.environ, **NO_COMPILER, "PIP_NO_CACHE_DIR": "1"}
    env.pop("GCGTOOLS_PURE_PYTHON", None)
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-v", "--no-deps", str(source)],
        capture_output=True, text=True, env=env, timeout=900,
    )  # fmt: skip
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-4000:]
    # the compiler was asked for the helper, and failed
    assert 'building extension "gcgtools.movegen._gaddag" failed' in log, log[-4000:]
    installed = subprocess.run(
        [str(python), "-c", "import gcgtools, os; print(os.path.dirname(gcgtools.__file__))"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    ).stdout.strip()  # fmt: skip
    assert Path(installed).is_relative_to(tmp_path / "venv")
    assert not list(Path(installed, "movegen").glob("_gaddag*.so"))

    gcgtools = str(tmp_path / "venv" / "bin" / "gcgtools")
    version = subprocess.run([gcgtools, "--version"], capture_output=True, text=True, env=env)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("gcgtools ")
    assert "(move generator: pure Python; install a C compiler" in version.stdout

    words = tmp_path / "words.txt"
    words.write_text("CAB\nCABS\nAB\nBA\nABS\nSAB\n")
    record = tmp_path / "game.gcg"
    record.write_text("#player1 a A\n#player2 b B\n>a: ABCS 8D CAB +14 14\n>b: ABS - +0 0\n")
    moves = subprocess.run(
        [gcgtools, "moves", str(record), "--lexicon", str(words), "-m", "1", "--rack", "ABS"],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert moves.returncode == 0, moves.stderr
    hints = [line for line in moves.stderr.splitlines() if "C helper was not built" in line]
    assert len(hints) == 1, moves.stderr
    assert "install a C compiler" in hints[0]
