"""Broken: the kernel module cannot be used as plain Python (NUMBA_DISABLE_JIT=1)."""
from numba import config

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)

if config.DISABLE_JIT:
    raise ImportError("jit_only needs the JIT")   # wrong: kernels must also run as Python


class JitOnly(Numbers):
    name = "jit-only"
    kernel_module = __name__
