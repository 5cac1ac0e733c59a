"""Benchmarks of the product: playouts per second, MCTS speed, compile times (`python cli.py
bench`, optionally beside OpenSpiel) and the solved Connect Four positions
(``benchmarks.connect4_strength``). The maintainers' diagnostics are in ``benchmarks.lab``."""
