"""Sources layer: where records come from and where outputs go. Files, folders and globs
(:mod:`~gcgtools.sources.paths`), fsspec URLs (:mod:`~gcgtools.sources.remote`), reading with
size and file-type rules (:mod:`~gcgtools.sources.load`), the files a dying worker is not to
read again (:mod:`~gcgtools.sources.quarantine`), and atomic writes
(:mod:`~gcgtools.sources.atomic`)."""

from gcgtools.sources.load import MAX_RECORD_BYTES, load_game, read_bytes, read_game
from gcgtools.sources.paths import display_name, expand_paths

__all__ = [
    "MAX_RECORD_BYTES",
    "display_name",
    "expand_paths",
    "load_game",
    "read_bytes",
    "read_game",
]
