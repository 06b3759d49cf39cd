"""gcgtools.grammar: the GCG grammar (gcg.lark), installed inside the package."""
