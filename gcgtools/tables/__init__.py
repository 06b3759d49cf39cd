"""Tables layer: archives as tables (one row per event, per game, per player in a game), as
pandas or Dask DataFrames, written to Parquet or CSV, and the statistics computed from them."""
