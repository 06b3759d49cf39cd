"""Where the archive tables are written: a CSV or Parquet file written chunk by chunk
(:class:`Sink`), or a partitioned Parquet dataset, a folder of part files
(:class:`DatasetSink`); :func:`open_sink` picks one for a target, :func:`record_batch`
turns rows into the Arrow batches the Parquet writers take. ``export``
(:func:`gcgtools.tables.frames.write_moves`) streams its rows into them."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gcgtools.sources.atomic import open_output
from gcgtools.tables.rows import STR_DTYPE, make_frame

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["PART_NAME", "DatasetSink", "Sink", "is_dataset_target", "open_sink", "record_batch"]


def _arrow_schema(dtypes: dict[str, str]) -> pa.Schema:
    import pyarrow as pa

    kinds = {
        STR_DTYPE: pa.string(),
        "int64": pa.int64(),
        "Int64": pa.int64(),
        "bool": pa.bool_(),
        "boolean": pa.bool_(),
        "Float64": pa.float64(),
    }
    return pa.schema([(name, kinds[t]) for name, t in dtypes.items()])


@cache
def _plain_schema(columns: tuple[tuple[str, str], ...]) -> pa.Schema:
    """The Arrow schema of a table with these ``(name, dtype)`` columns."""
    return _arrow_schema(dict(columns))


@cache
def _parquet_schema(columns: tuple[tuple[str, str], ...]) -> pa.Schema:
    """The Arrow schema of a table with these ``(name, dtype)`` columns, with the pandas
    metadata that makes ``read_parquet`` give back the frame's dtypes (Int64 ...)."""
    import pyarrow as pa

    dtypes = dict(columns)
    pandas_meta = pa.Schema.from_pandas(make_frame([], dtypes), preserve_index=False)
    return _arrow_schema(dtypes).with_metadata(pandas_meta.metadata)


def record_batch(rows: list[tuple[Any, ...]], dtypes: dict[str, str]) -> pa.RecordBatch:
    """Rows as an Arrow record batch, column by column: no DataFrame in between. (Its
    schema has no pandas metadata: the writer's schema adds it.)"""
    import pyarrow as pa

    schema = _plain_schema(tuple(dtypes.items()))
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(schema)
    arrays = [pa.array(c, type=f.type) for c, f in zip(columns, schema, strict=True)]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


# Text columns whose values are free text or unique per game: min/max statistics on them
# help no reader filter, and take time to write.
_NO_STATISTICS = frozenset(
    {"file", "game_id", "title", "rack", "position", "word", "words", "premiums", "leave",
     "best_word", "name1", "name2", "players", "best_move", "phony_words",
     "analysis_lexicon"}
)  # fmt: skip


def _statistics_columns(dtypes: dict[str, str]) -> list[str]:
    """The columns whose Parquet row groups carry min/max statistics."""
    return [name for name in dtypes if name not in _NO_STATISTICS]


class Sink:
    """A CSV or Parquet file written chunk by chunk into a temporary file, then moved
    into place, so a reader never sees half a file (by the rules of
    :mod:`gcgtools.sources.atomic`: a special file such as /dev/null is written directly). A
    chunk is row tuples, or (Parquet) Arrow record batches of the same columns."""

    def __init__(self, path: str | os.PathLike[str], dtypes: dict[str, str]) -> None:
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in (".csv", ".parquet", ".pq"):
            raise ValueError(f"{self.path}: the file name must end in .parquet or .csv")
        self.parquet = suffix != ".csv"
        self.dtypes = dtypes
        self.out = open_output(self.path)
        self.text: Any = None  # the open CSV file
        self.writer: Any = None
        self.started = False
        self.rows = 0

    def _failed(self, exc: OSError) -> OSError:
        """``exc`` naming this sink's file (not its temporary file)."""
        return OSError(exc.errno, exc.strerror or str(exc), str(self.path))

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        try:
            self._write(rows)
        except OSError as exc:
            raise self._failed(exc) from None

    def _write(self, rows: list[tuple[Any, ...]]) -> None:
        if not rows and self.started:
            return
        if self.parquet:
            self._write_batches([record_batch(rows, self.dtypes)])
            return
        if self.text is None:  # one handle for every chunk (a FIFO reader sees one file)
            self.text = open(self.out.name, "w", encoding="utf-8", newline="")  # noqa: SIM115
        frame = make_frame(rows, self.dtypes)
        frame.to_csv(self.text, header=not self.started, index=False)
        self.started = True
        self.rows += len(rows)

    def write_batches(self, batches: list[pa.RecordBatch]) -> None:
        """Parquet only: one row group of ``batches``."""
        try:
            self._write_batches(batches)
        except OSError as exc:
            raise self._failed(exc) from None

    def _write_batches(self, batches: list[pa.RecordBatch]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        schema = _parquet_schema(tuple(self.dtypes.items()))
        table = pa.Table.from_batches(batches, schema=schema)
        if self.started and not table.num_rows:
            return
        if self.writer is None:
            self.writer = pq.ParquetWriter(
                self.out.name, schema, write_statistics=_statistics_columns(self.dtypes)
            )
        self.writer.write_table(table)
        self.started = True
        self.rows += table.num_rows

    def _close_files(self) -> None:
        text, writer, self.text, self.writer = self.text, self.writer, None, None
        try:
            if writer is not None:
                writer.close()
        finally:
            if text is not None:
                text.close()

    def close(self) -> None:
        try:
            if not self.started:
                self.write([])  # an empty table still has its columns
            self._close_files()
        except OSError as exc:
            self.abort()
            raise self._failed(exc) from None
        self.out.commit()

    def abort(self) -> None:
        try:
            self._close_files()
        except OSError:
            pass  # the file is dropped anyway
        self.out.abort()


PART_NAME = "part-{:05d}.parquet"


def is_dataset_target(path: str | os.PathLike[str]) -> bool:
    """True when ``export`` should write a partitioned dataset to ``path``: a name that
    ends with a slash, or an existing folder."""
    text = os.fspath(path)
    return text.endswith(("/", os.sep)) or os.path.isdir(text)


class DatasetSink:
    """A partitioned Parquet dataset: a folder of ``part-00000.parquet``,
    ``part-00001.parquet`` ... files, one per chunk (``CHUNK_ROWS`` moves each, the last
    fewer), each with the same schema and pandas metadata, so that
    ``pandas.read_parquet(folder)``,
    ``dask.dataframe.read_parquet(folder)``, DuckDB (``'folder/*.parquet'``) and Spark
    read it as one table. The parts are written into a temporary folder beside the
    target, which then replaces it whole; a folder holding anything but such parts is
    never replaced."""

    parquet = True

    def __init__(self, path: str | os.PathLike[str], dtypes: dict[str, str]) -> None:
        import tempfile

        self.path = Path(path)
        self.dtypes = dtypes
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"{self.path}: not a folder, cannot write a dataset there")
        if self.path.is_dir():
            others = [p.name for p in self.path.iterdir() if not _is_part(p.name)]
            if others:
                raise ValueError(
                    f"{self.path}: the folder holds other files ({', '.join(sorted(others)[:3])}"
                    "); a dataset is written to a new or empty folder, or over a dataset"
                )
        parent = self.path.parent
        # a missing parent folder is refused (mkdtemp raises), as for every writer
        self.tmp = Path(tempfile.mkdtemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=parent))
        self.parts = 0
        self.rows = 0

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        self.write_batches([record_batch(rows, self.dtypes)])

    def write_batches(self, batches: list[pa.RecordBatch]) -> None:
        """One part file of ``batches`` (none for an empty chunk, but the first)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        schema = _parquet_schema(tuple(self.dtypes.items()))
        table = pa.Table.from_batches(batches, schema=schema)
        if self.parts and not table.num_rows:
            return
        pq.write_table(
            table,
            self.tmp / PART_NAME.format(self.parts),
            write_statistics=_statistics_columns(self.dtypes),
        )
        self.parts += 1
        self.rows += table.num_rows

    def close(self) -> None:
        import shutil

        if not self.parts:
            self.write([])  # an empty dataset still has its columns
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self.tmp, 0o777 & ~umask)
        aside = None
        if self.path.exists():
            aside = self.tmp.with_name(self.tmp.name + ".old")
            os.replace(self.path, aside)
        os.replace(self.tmp, self.path)
        if aside is not None:
            shutil.rmtree(aside, ignore_errors=True)

    def abort(self) -> None:
        import shutil

        shutil.rmtree(self.tmp, ignore_errors=True)


def _is_part(name: str) -> bool:
    return name.startswith("part-") and name.endswith(".parquet")


def open_sink(
    path: str | os.PathLike[str], dtypes: dict[str, str], partitioned: bool | None
) -> Sink | DatasetSink:
    """A file sink, or a dataset sink when ``partitioned`` (None: when ``path`` ends with
    a slash or is an existing folder)."""
    if partitioned is None:
        partitioned = is_dataset_target(path)
    if partitioned:
        suffix = Path(path).suffix.lower()
        if suffix == ".csv":
            raise ValueError(f"{path}: a partitioned dataset is written as Parquet, not CSV")
        return DatasetSink(path, dtypes)
    return Sink(path, dtypes)
