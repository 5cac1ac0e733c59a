"""Atomic array operations for compiled code that threads share (the shared search tree).

numba has no atomics for CPU code; these are LLVM's own instructions (``atomicrmw``,
``cmpxchg``, atomic ``load``/``store``; LLVM Language Reference, "Atomic Memory Ordering
Constraints"), emitted inline through ``numba.extending.intrinsic``, so callers stay
cacheable (``cache=True``). Each takes a one-dimensional contiguous numpy array and an
integer index (not checked against the bounds, like numba's own indexing), and is
sequentially consistent: a thread that reads what another published also sees every store
the other made before it.

* ``atomic_add(a, i, v)``: ``a[i] += v`` for an integer or float array; returns the old value.
* ``atomic_cas(a, i, expected, new)``: if ``a[i] == expected``, ``a[i] = new``; returns the
  old value either way (the exchange happened if it equals ``expected``). Integer arrays.
* ``atomic_load(a, i)`` / ``atomic_store(a, i, v)``: a read or write no other thread can see
  half done, and that the compiler may not move across the others.
"""
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_ORDER = "seq_cst"


def _pointer(context, builder, arr_type, arr, index, index_type):
    ary = context.make_array(arr_type)(context, builder, arr)
    i = context.cast(builder, index, index_type, types.intp)
    return cgutils.get_item_pointer(context, builder, arr_type, ary, [i], wraparound=False)


@intrinsic
def atomic_add(typingctx, arr, index, value):
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None
    dtype = arr.dtype
    op = "fadd" if isinstance(dtype, types.Float) else "add"

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], args[1], sig.args[1])
        v = context.cast(builder, args[2], sig.args[2], dtype)
        return builder.atomic_rmw(op, ptr, v, _ORDER)
    return dtype(arr, index, value), codegen


@intrinsic
def atomic_cas(typingctx, arr, index, expected, new):
    if not isinstance(arr, types.Array) or not isinstance(arr.dtype, types.Integer):
        return None
    dtype = arr.dtype

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], args[1], sig.args[1])
        old = context.cast(builder, args[2], sig.args[2], dtype)
        new_v = context.cast(builder, args[3], sig.args[3], dtype)
        pair = builder.cmpxchg(ptr, old, new_v, _ORDER, _ORDER)
        return builder.extract_value(pair, 0)
    return dtype(arr, index, expected, new), codegen


@intrinsic
def atomic_load(typingctx, arr, index):
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None
    dtype = arr.dtype

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], args[1], sig.args[1])
        return builder.load_atomic(ptr, _ORDER, context.get_abi_sizeof(ptr.type.pointee))
    return dtype(arr, index), codegen


@intrinsic
def atomic_store(typingctx, arr, index, value):
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None
    dtype = arr.dtype

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], args[1], sig.args[1])
        v = context.cast(builder, args[2], sig.args[2], dtype)
        builder.store_atomic(v, ptr, _ORDER, context.get_abi_sizeof(ptr.type.pointee))
        return context.get_dummy_value()
    return types.void(arr, index, value), codegen
