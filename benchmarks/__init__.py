"""Benchmarks: playouts per second, MCTS speed, compile times (`python cli.py bench`)."""
