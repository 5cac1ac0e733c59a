"""The background native compile started by :func:`mcts.portable.spawn_native`:
``python3 -m mcts.native_build SPEC`` (a :func:`games.contract.spec_of` in JSON)."""
import sys

from mcts.portable import _native

if __name__ == "__main__":
    sys.exit(_native(sys.argv[1]) if len(sys.argv) == 2 else 2)
