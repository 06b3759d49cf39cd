"""Jobs layer: one output per input record for many records at once (a single file is a
batch of one), written safely, and the static site of many games."""
