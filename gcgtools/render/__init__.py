"""Render layer: records, boards, findings, analyses and tables turned into text, GCG, SVG,
PNG, HTML and charts."""
