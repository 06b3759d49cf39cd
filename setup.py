"""Build hook for the optional C helper of the move generator.

Everything else about the package is in pyproject.toml. ``gcgtools.movegen._gaddag`` is the
generator's inner loop in C (its files: ``NATIVE_SOURCES``, with their headers); it is
optional: without a C compiler the install still
succeeds and the generator runs in pure Python (same results, slower).
"""

import glob

from setuptools import Extension, setup

#: The C helper's files: the module file (the only one that touches the Python C API),
#: then the plain C files by concern (see docs/engine.md, "The C files").
NATIVE_SOURCES = [
    "_gaddag",
    "cross_sets",
    "leaves",
    "word_index",
    "generation",
    "shadow",
    "endgame",
    "simulation",
    "word_prune",
]

setup(
    ext_modules=[
        Extension(
            "gcgtools.movegen._gaddag",
            [f"gcgtools/movegen/{name}.c" for name in NATIVE_SOURCES],
            depends=sorted(glob.glob("gcgtools/movegen/*.h")),
            optional=True,
            # no fused multiply-adds: the win model's arithmetic must round as Python's does
            extra_compile_args=["-O3", "-ffp-contract=off"],
        )
    ]
)
