"""Compile options shared by the games' kernels and the search (:mod:`mcts`).

``nrt_free`` compiles a function with ``numba.njit(cache=True)`` but without numba's
reference counting (its runtime, NRT). Otherwise a compiled function that receives an array
increments its reference count on entry and decrements it on every exit: two atomic
operations and two indirect calls per array argument per call. The many small calls of a Go
playout spent more on those than on the Go in them, and so did the tree's phase functions,
which take a dozen arrays each. Measured on 9x9, one thread (``cli.py bench go``): uniform
random playouts 73 k/s -> 104 k/s, the ``ko`` policy's 27 k/s -> 44 k/s.

A function compiled this way must not allocate, return or keep an array: numba refuses to
compile one that allocates ("NRT required but not enabled"), and a function it calls that is
not compiled with an explicit choice of its own inherits the setting, so scratch arrays come
from the caller. Arrays it receives stay owned by the caller for the whole call, which is
what makes the counts unnecessary. (``_nrt`` is numba's own option, used by its test suite.)
"""
from numba import njit

nrt_free = njit(cache=True, _nrt=False)


@nrt_free
def copy_into(dst, src):
    """``dst[:] = src`` for 1-D arrays of ``src``'s length, written as a loop: numba compiles
    the generic implementation of a slice assignment for about 3 s on its first use in a
    process (measured, numba 0.68), and a first run or an edited game pays that otherwise."""
    for i in range(src.shape[0]):
        dst[i] = src[i]
