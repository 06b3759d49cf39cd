"""Edit layer: records rewritten with notes (annotate) or with corrected scores (fix)."""
