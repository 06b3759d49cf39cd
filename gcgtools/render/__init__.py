"""Render layer: records, boards, findings, analyses and tables turned into text, GCG, SVG,
PNG, HTML and charts."""

WIDTH = 80
"""The width of the text reports (analyses, judgements, deep analyses), in columns."""
