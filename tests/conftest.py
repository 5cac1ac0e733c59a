"""Settings of the whole suite: no test starts the detached background compile of
mcts.portable (tests/test_portable.py checks it on purpose), in this process or its children."""
import os

os.environ.setdefault("MCTS_NATIVE_BUILD", "0")
