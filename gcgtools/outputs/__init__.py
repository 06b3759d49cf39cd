"""Outputs layer: text, JSON, GCG, pictures and reports built from a replay."""
