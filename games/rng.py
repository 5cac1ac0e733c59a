"""Seeded random numbers for compiled code.

A generator state is a ``uint64`` array of shape ``(1,)``; compiled kernels load it into a
local variable, advance it with :func:`next_u64` and store it back. The generator is
xorshift64* (Marsaglia 2003, "Xorshift RNGs"; Vigna 2016, "An experimental exploration of
Marsaglia's xorshift generators, scrambled"). Seeds are spread with splitmix64 so that
nearby seeds give unrelated streams.

``np.random.seed`` does not reach numba-compiled code, which is why every kernel that draws
random numbers takes one of these state arrays explicitly: the same seed gives the same game.
"""
import warnings

import numpy as np
from numba import config, njit

from games import jit_cache  # noqa: F401  (closure-aware cache stamps, before any kernel)

if config.DISABLE_JIT:
    # As plain Python, the multiplications below wrap around as intended, but numpy warns.
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning, __name__)

_MASK64 = (1 << 64) - 1
_STAR = np.uint64(0x2545F4914F6CDD1D)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S32 = np.uint64(32)


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def new_rng(seed: int) -> np.ndarray:
    """Return a generator state (``uint64[1]``) for an integer ``seed`` (any int, negative too)."""
    z = _splitmix64(int(seed) & _MASK64) or 0x9E3779B97F4A7C15
    return np.array([z], dtype=np.uint64)


def split_seed(seed: int, stream: int) -> int:
    """Derive an independent integer seed for sub-stream ``stream`` of ``seed``."""
    return _splitmix64((int(seed) * 0x9E3779B97F4A7C15 + int(stream)) & _MASK64)


@njit(cache=True)
def next_u64(x):
    """Advance xorshift64 state ``x`` (uint64, non-zero); return the new state (uint64)."""
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    return x


@njit(cache=True)
def below(x, n):
    """Map a fresh state ``x`` (uint64) to an int64 uniform in ``[0, n)`` for ``0 < n < 2**32``."""
    r = (x * _STAR) >> _S32
    return np.int64((r * np.uint64(n)) >> _S32)


@njit(cache=True)
def random_below(rng, n):
    """Draw an int64 uniform in ``[0, n)`` from generator state ``rng`` (uint64[1]), advancing it."""
    x = next_u64(rng[0])
    rng[0] = x
    return below(x, n)



@njit(cache=True)
def draw_index(rng, probs, n):
    """Draw an index ``i`` in ``[0, n)`` with probability ``probs[i]`` (float64, summing to 1)
    from generator state ``rng`` (uint64[1]), advancing it: inversion of the cumulative
    distribution on a 53-bit uniform; the last index takes any rounding remainder."""
    x = next_u64(rng[0])
    rng[0] = x
    u = np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    for i in range(n - 1):
        u -= probs[i]
        if u < 0.0:
            return np.int64(i)
    return np.int64(n - 1)


@njit(cache=True)
def draw_outcome(rng, actions, probs, n):
    """Draw one of the ``n`` chance outcomes ``actions`` (int32) by their probabilities
    ``probs`` (float64, summing to 1) from generator state ``rng`` (uint64[1]) with
    :func:`draw_index`; returns the outcome (int64)."""
    return np.int64(actions[draw_index(rng, probs, n)])
