"""Build hook for the optional C helper of the move generator.

Everything else about the package is in pyproject.toml. ``gcgtools.movegen._gaddag`` is the
generator's inner loop in C; it is optional: without a C compiler the install still
succeeds and the generator runs in pure Python (same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "gcgtools.movegen._gaddag",
            ["gcgtools/movegen/_gaddag.c"],
            optional=True,
            extra_compile_args=["-O3"],
        )
    ]
)
