"""``gcgtools cache info|clear``: the result cache and the compiled lexicons in the user's
cache folder."""

from __future__ import annotations

from typing import Annotated

import typer

from gcgtools.batch.cache import cache_info, clear_cache
from gcgtools.cli.common import app
from gcgtools.console import echo
from gcgtools.lexicon import cache as lexicon_cache

cache_app = typer.Typer(
    name="cache",
    help="The cache of per-record results and compiled lexicons (info, clear).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(cache_app)


def _size(size: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return str(size)  # pragma: no cover


@cache_app.command("info")
def info(
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Where the cache is, its entries and size, and the hits and misses counted; then the
    compiled lexicons (word lists compiled to KWG once)."""
    found = cache_info()
    compiled = lexicon_cache.cache_info()
    if json_out:
        import json

        data = {
            "folder": str(found.folder),
            "entries": found.entries,
            "size": found.size,
            "hits": found.hits,
            "misses": found.misses,
            "kinds": found.kinds,
            "lexica": {
                "folder": str(compiled.folder),
                "entries": compiled.entries,
                "size": compiled.size,
            },
        }
        echo(json.dumps(data), json=True)
        return
    rate = f" ({found.hit_rate:.0%} hits)" if found.hit_rate is not None else ""
    echo(f"folder:  {found.folder}")
    echo(f"entries: {found.entries}" + "".join(f", {k} {n}" for k, n in found.kinds.items()))
    echo(f"size:    {_size(found.size)}")
    echo(f"hits:    {found.hits}, misses: {found.misses}{rate}")
    echo(f"compiled lexica: {compiled.entries} in {compiled.folder}, {_size(compiled.size)}")


@cache_app.command("clear")
def clear() -> None:
    """Remove every cached result and the hit/miss counts, and every compiled lexicon."""
    removed = clear_cache()
    echo(f"removed {removed} entries from {cache_info().folder}")
    compiled = lexicon_cache.clear()
    noun = "lexicon" if compiled == 1 else "lexica"
    echo(f"removed {compiled} compiled {noun} from {lexicon_cache.cache_dir()}")
