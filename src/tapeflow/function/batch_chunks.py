"""Batch chunks: a compiled program's steps that are independent along the batch axis, run
chunk by chunk on two threads instead of op by op over the whole batch.

A pass over a fixed-shape compile (``codegen.compile_program`` with buffers: every slot's
traced shape holds at every call). A *row-wise* step is one whose output row ``i`` (along
axis 0) depends only on row ``i`` of its batched inputs, by its op type: convolutions and
pooling (``Conv2D``, ``DepthwiseConv2dNative``, ``MaxPool``, ``AvgPool``), element-wise ops
(``Relu``, ``Sigmoid``, ``AddV2``..., an operand that does not span the batch axis is passed
whole: a bias), ``BiasAdd``, ``MatMul`` of batched rows by a whole matrix, ``Softmax`` over
the last axis, and ``Reshape`` by a constant shape that keeps the batch. A maximal run of
such steps of one batch size (the variable reads and pure steps on whole values found
between them are hoisted before it) becomes one step that cuts the batch into chunks, taken
in turn by the calling thread and ``ops/_parallel``'s helper (NumPy and BLAS release the
GIL), and runs every step of the run on one chunk before the next: a chunk's intermediates
stay in the core's cache, where op by op each step made a full pass over megabyte arrays.
In a chunk, a bias add and a ReLU write over the array they read when nothing else reads it
(the convolution's fresh output), and the kernels run on one thread each (OpenBLAS at one
thread, no nested cutting). Only the values later steps read leave the run (written into
whole-batch arrays, chunk by chunk).

Each step computes its chunk by the same kernel as its op-by-op run (its forward, or the
same ufunc with ``out=``): rows of a product are independent, so results are bit for bit
those of the op-by-op replay (``tests/function/test_batch_chunks.py``). (OpenBLAS's sgemm
gives a row the same bits whatever rows are computed with it for 8, 16 or 32 columns and
two rows or more, as measured with 0.3.31's SkylakeX kernel; with 7 columns some rows
differed by an ulp between a whole product and a part of it: that holds for the chunks as
for the op-by-op program's own cuts.)

A ``MaxPool`` whose windows tile its input runs *before* a chain of per-channel monotonic
steps that feeds it (bias adds, a ReLU: :func:`_pools_first`), on the chain's input, and
the chain on the pooled values (a quarter of them for 2x2 windows); where that input is a
``Conv2D`` read by nothing else, the convolution computes only the positions the windows
read, window offset by offset (``ops/_conv_windows.py``'s ``WindowConv``, planned once at
compile), and the pool is two long ``fmax`` passes for 2x2 windows
(``_pool_kernels.window_max``) instead of a pass over C-float rows. A finite bias added
right after the convolution rides in its product (one more filter row: the separate add's
bits, checked once per shape on this BLAS), and the per-call checks (the filter's kernel,
the chain's operands finite) run once per call, not per chunk (:meth:`_PoolFirst.prepare`).
Exact (the conditions and the per-chunk fallback to the op-by-op order:
:func:`_pool_first_kernel`). The benchmark CNN at batch 64, one thread, CPU per call:
2.25-2.4 ms before session 12, 1.7-1.9 ms after it, 1.55-1.6 ms after session 13
(``benchmarks/NOTES.md``). Only runs of at
least :data:`MIN_BYTES` of batched values and batches of :data:`MIN_BATCH` rows or more are
cut (a batch-1 call never is), and only into two chunks or more of :data:`MIN_CHUNK_BYTES`
of intermediates each; small trailing steps (under :data:`SMALL_BYTES`, a dense head after
the convolutions) stay op by op, where one call costs less than several.

Chunk size: :data:`CHUNK_BYTES` (4 MB) of intermediates, at least :data:`MIN_CHUNKS` chunks.
Chunks the size of a core's L2 (1 MB here) lost: each chunk costs some 30-60 us of Python
and NumPy call overhead whatever its size (a pooling is 8 NumPy calls, a convolution 6), and
the machine's 32 MB L3 holds a whole batch-64 CNN's intermediates anyway (the benchmark
CNN, one thread, CPU per call: 7.4 ms in 256 KB chunks, 4.2 ms in 512 KB, 3.0 ms in 1 MB,
2.5 ms in 4 MB, against 3.2 ms op by op; ``benchmarks/NOTES.md``, session 11).
``TAPEFLOW_BATCH_CHUNKS=0`` in the environment turns the pass off (read at import).
"""
import operator
import os

from .._core.backend import np
from .._core.registry import Primitive
from ..ops import _kernels
from ..ops import _parallel as _par
from ..ops import _pool_kernels as _pk
from ..ops._conv_windows import WindowConv
from .ir import Op, Read, stateful
from .passes import pure

__all__ = ["chunk_batches", "ENABLED", "MIN_BATCH", "MIN_BYTES", "CHUNK_BYTES"]

ENABLED = [os.environ.get("TAPEFLOW_BATCH_CHUNKS", "1") != "0"]
MIN_BATCH = 4             # rows below which a program is left op by op
MIN_BYTES = 1 << 20       # batched bytes a run must touch to be cut
SMALL_BYTES = 1 << 18     # a trailing step touching less than this stays op by op
CHUNK_BYTES = 1 << 22     # intermediates of one chunk (see the module docstring)
MIN_CHUNK_BYTES = 1 << 20  # and no fewer
MIN_CHUNKS = 4            # at least this many chunks (two threads take them in turn)

_ROW_CONVS = frozenset(("Conv2D", "DepthwiseConv2dNative", "MaxPool", "AvgPool"))
_UNARY = frozenset(("Relu", "Relu6", "Elu", "Selu", "Sigmoid", "Tanh", "Softplus",
                    "LeakyRelu", "Identity", "Neg", "Exp"))
_BINARY = frozenset(("AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum"))
_UFUNCS = {operator.add: np.add, operator.sub: np.subtract, operator.mul: np.multiply,
           operator.truediv: np.divide, np.maximum: np.maximum, np.minimum: np.minimum}
# ops whose output is always a new array (never a view of an input): writable in place
_FRESH = frozenset(("Conv2D", "DepthwiseConv2dNative", "MaxPool", "AvgPool", "MatMul",
                    "Softmax", "LogSoftmax", "BiasAdd", "Relu", "Relu6", "Elu", "Selu",
                    "Sigmoid", "Tanh", "Softplus", "LeakyRelu", "Neg", "Exp", *_BINARY))


def _shape(meta, consts, s):
    if s in consts:
        v = consts[s]
        return np.shape(v), np.result_type(v)
    m = meta.get(s)
    if m is None or m[0] is None or None in tuple(m[0]):
        return None
    return tuple(m[0]), np.dtype(m[1])


def _row_inputs(step, meta, consts, fixed):
    """``(batch size, per-input flags: sliced by rows or passed whole)`` when ``step`` is
    row-wise for the shapes it has here, else None."""
    if type(step) is not Op or len(step.outs) != 1 or stateful(step.prim):
        return None
    name, ins, out = step.prim.name, step.ins, step.outs[0]
    if out not in fixed and name != "Reshape":
        return None
    mo = _shape(meta, consts, out)
    if mo is None or len(mo[0]) < 2 or mo[1].kind not in "fc":
        return None
    n = mo[0][0]
    shapes = [_shape(meta, consts, s) for s in ins]
    if None in shapes:
        return None
    attrs = step.attrs or {}
    if name in _BINARY:
        if len(ins) != 2 or attrs:
            return None
        flags = []
        for s, (shp, _) in zip(ins, shapes):
            if shp == mo[0] and s in fixed and s not in consts:
                flags.append(True)      # a batched operand (a residual add: both)
            elif len(shp) < len(mo[0]) or shp[0] == 1:
                flags.append(False)     # broadcast along the other axes only (a bias)
            else:
                return None
        return (n, tuple(flags)) if any(flags) else None
    x = shapes[0][0]
    if ins[0] in consts or ins[0] not in fixed or len(x) < 2 or x[0] != n:
        return None
    if name in _ROW_CONVS:
        ok = len(x) == 4 and (len(ins) == 1 or len(ins) == 2 and len(shapes[1][0]) == 4)
        flags = (True,) + (False,) * (len(ins) - 1)
    elif name in _UNARY:
        ok, flags = len(ins) == 1 and x == mo[0], (True,)
    elif name == "BiasAdd":
        ok, flags = len(ins) == 2 and len(shapes[1][0]) == 1 and x == mo[0], (True, False)
    elif name == "MatMul":
        ok = (len(ins) == 2 and len(x) == 2 and len(shapes[1][0]) == 2
              and not attrs.get("transpose_a") and not attrs.get("adjoint_a"))
        flags = (True, False)
    elif name in ("Softmax", "LogSoftmax"):
        ok = len(ins) == 1 and attrs.get("axis") in (-1, len(x) - 1)
        flags = (True,)
    elif name == "Reshape":
        # by a constant shape that keeps the rows (a Flatten): each chunk its own rows
        ok = (len(ins) == 2 and ins[1] in consts and mo[0][0] == n
              and int(np.prod(x[1:])) == int(np.prod(mo[0][1:]))
              and _reshaped(x, consts[ins[1]]) == mo[0])
        flags = (True, False)
    else:
        return None
    return (n, flags) if ok else None


def _reshaped(shape, target):
    try:
        return np.empty(shape, np.uint8).reshape(tuple(int(d) for d in target)).shape
    except (ValueError, TypeError):
        return None


def _bytes(meta, consts, s):
    m = _shape(meta, consts, s)
    return 0 if m is None else int(np.prod(m[0])) * m[1].itemsize


def chunk_batches(program, steps, fixed):
    """``steps`` with each maximal run of row-wise steps of one batch size (see the module's
    docstring) replaced by one step that runs it chunk by chunk; the program's ``meta`` is
    not changed (the new step's outputs are slots the run already had)."""
    if not ENABLED[0] or not steps:
        return steps
    meta, consts = program.meta, program.consts
    rows = [_row_inputs(st, meta, consts, fixed) for st in steps]
    if not any(r is not None and r[0] >= MIN_BATCH for r in rows):
        return steps
    uses = {}
    for k, st in enumerate(steps):
        for s in st.uses():
            uses.setdefault(s, []).append(k)
    outputs = {s for s in program.outputs if s is not None}
    out, run, hoisted, defs, n = [], [], [], set(), None

    def close():
        nonlocal run, hoisted, defs, n
        fused = _fuse(run, n, meta, consts, uses, outputs) if run else None
        if fused is None:
            # not cut: the steps in their own order (the later passes read adjacency)
            out.extend(st for _, st in sorted(hoisted + [(k, st) for k, st, _ in run],
                                              key=lambda item: item[0]))
        else:
            out.extend(st for _, st in hoisted)
            out.extend(fused)
        run, hoisted, defs, n = [], [], set(), None

    for k, st in enumerate(steps):
        r = rows[k]
        if r is not None and r[0] >= MIN_BATCH and (n is None or r[0] == n):
            n = r[0]
            run.append((k, st, r[1]))
            defs.update(st.outs)
            continue
        if run and (type(st) is Read or type(st) is Op and not stateful(st.prim)
                    and pure(st)) and defs.isdisjoint(st.uses()):
            hoisted.append((k, st))   # a variable read or a whole-value step: before the run
            continue
        close()
        if r is not None and r[0] >= MIN_BATCH:
            n = r[0]
            run.append((k, st, r[1]))
            defs.update(st.outs)
        else:
            out.append(st)
    close()
    return out


def _fuse(run, n, meta, consts, uses, outputs):
    """The steps for one run: ``[the chunked step]`` plus the small trailing steps left op
    by op, or None when it is not worth cutting."""
    def touched(item):
        _, st, flags = item
        return sum(_bytes(meta, consts, s) for s, f in zip(st.ins, flags) if f) + \
            _bytes(meta, consts, st.outs[0])

    run, tail = list(run), []
    while run and touched(run[-1]) < SMALL_BYTES:
        tail.insert(0, run.pop())
    if len(run) < 2 or sum(touched(i) for i in run) < MIN_BYTES:
        return None
    ks = {k for k, _, _ in run}
    made = {s for _, st, _ in run for s in st.outs}
    # the run's values read after it (or returned): written whole, chunk by chunk
    leaving = [st.outs[0] for _, st, _ in run
               if st.outs[0] in outputs or any(u not in ks for u in uses.get(st.outs[0], ()))]
    ext, ext_rows = [], []
    local = {}
    for _, st, flags in run:
        for s, f in zip(st.ins, flags):
            if s not in made and s not in local:
                local[s] = len(ext)
                ext.append(s)
                ext_rows.append(f)
            elif s not in made and f and not ext_rows[local[s]]:
                return None     # one slot both sliced and whole
    for _, st, _ in run:
        local[st.outs[0]] = len(local)
    pooled = _pools_first(run, uses, leaving, meta, consts)
    chained = {k for conv, chain in pooled.values()
               for k, _, _ in chain + ([conv] if conv is not None else [])}
    # each made value's last reader in the run (a pool run first reads its chain's input
    # and the convolution's operands at its own place)
    last = {s: max(u for u in uses[s] if u in ks) for s in made if s not in leaving}
    for k, (conv, chain) in pooled.items():
        head = conv[1].ins if conv is not None else chain[0][1].ins
        for s in head:
            if s in last:
                last[s] = max(last[s], k)
    plan = []
    per_row = 0
    for k, st, flags in run:
        o = st.outs[0]
        shape, dtype = _shape(meta, consts, o)
        if st.prim.name == "Conv2D":    # its patch matrix
            kh, kw = _shape(meta, consts, st.ins[1])[0][:2]
            per_row += int(np.prod(shape[1:3])) * kh * kw * _shape(meta, consts, st.ins[0])[0][3] \
                * dtype.itemsize
        # an input that dies here, made fresh in the chunk, of the output's shape: reused
        inplace = -1
        for s, f in zip(st.ins, flags):
            if (f and s in made and s not in leaving and uses.get(s) == [k]
                    and _shape(meta, consts, s) == (shape, dtype)
                    and _fresh_in_chunk(s, run)):
                inplace = local[s]
                break
        if inplace < 0:     # (sized as op by op, also where the pool runs first)
            per_row += int(np.prod(shape[1:])) * dtype.itemsize
        if k in chained:    # computed after the pool that reads it (below)
            continue
        if k in pooled:
            conv, chain = pooled[k]
            head = (tuple(conv[1].ins) if conv is not None
                    else (chain[0][1].ins[chain[0][2].index(True)],))
            ins = head + tuple(
                s for _, cst, cflags in chain for s, f in zip(cst.ins, cflags) if not f)
            frees = tuple(local[s] for s in set(ins) if last.get(s) == k)
            plan.append((_pool_first_kernel(st, conv, chain, meta, consts, n),
                         tuple(local[s] for s in ins), local[o],
                         leaving.index(o) if o in leaving else -1, -1, frees))
            continue
        frees = tuple(local[s] for s in set(st.ins) if last.get(s) == k)
        plan.append((_kernel(st, meta, consts), tuple(local[s] for s in st.ins), local[o],
                     leaving.index(o) if o in leaving else -1, inplace, frees))
    # chunks of CHUNK_BYTES, at least MIN_CHUNKS of them, none under MIN_CHUNK_BYTES (a
    # chunk's fixed cost, some 30-60 us of Python and NumPy calls, must stay small)
    total = per_row * n
    count = min(max(MIN_CHUNKS, -(-total // CHUNK_BYTES)), total // MIN_CHUNK_BYTES, n // 2)
    if count < 2:
        return None
    specs = [_shape(meta, consts, s) for s in leaving]
    # balanced: sizes differ by one row at most, two rows or more each (a one-row product
    # would go to BLAS's matrix-vector kernel, which sums in another order)
    bounds = [n * i // count for i in range(count + 1)]
    chunks = list(zip(bounds[:-1], bounds[1:]))
    for kernel, *_ in plan:
        if type(kernel) is _PoolFirst:
            kernel.sized({b - a for a, b in chunks})
    fwd = _runner(plan, tuple(ext_rows), len(local), specs, chunks, len(leaving) == 1)
    fwd.pools_first = len(pooled)
    fwd.convs_by_windows = sum(type(k) is _PoolFirst and k.windows is not None
                               for k, *_ in plan)
    fwd.biases_in_products = sum(type(k) is _PoolFirst and k.bias != 0 for k, *_ in plan)
    prim = Primitive("BatchChunks", fwd, differentiable=False)
    site = run[-1][1].site
    return [Op(prim, tuple(ext), {}, tuple(leaving), site)] + [st for _, st, _ in tail]


_MONOTONE = frozenset(("AddV2", "BiasAdd", "Sub", "Relu"))


def _pools_first(run, uses, leaving, meta, consts):
    """``{k: (conv, chain)}`` for each ``MaxPool`` step ``k`` of ``run`` whose windows tile
    its input (stride == window, no padding) and whose input comes from a chain of
    element-wise steps that are monotonic non-decreasing in their batched operand, per
    channel: a ReLU, an add of a value constant along every axis but the last (a bias:
    ``AddV2``, ``BiasAdd``, or ``Sub`` of it), each read only by the next (nothing after the
    run reads them), and/or from a ``Conv2D`` read by nothing else (``conv``, else None).
    The pool then runs first, on the chain's input, and the chain on the pooled values (a
    quarter of them for 2x2 windows): ``max_i f(x_i) == f(max_i x_i)`` for such an ``f``
    (rounding is monotonic too), bit for bit when no window is all NaN and the added values
    are finite (see :func:`_pool_first_kernel`, which checks them at each call). The
    convolution computes only the positions the windows read, window offset by offset
    (``ops/_conv_windows.py``), so the pool's maxima are long contiguous passes."""
    at = {st.outs[0]: (k, st, flags) for k, st, flags in run}
    found = {}
    for k, st, _ in run:
        attrs = st.attrs or {}
        if (st.prim.name != "MaxPool" or len(st.ins) != 1 or st.ins[0] not in at
                or set(attrs) != {"ksize", "strides", "pads"}):
            continue
        x_shape, dtype = _shape(meta, consts, st.ins[0])
        oh, ow = _shape(meta, consts, st.outs[0])[0][1:3]
        if (dtype.kind != "f" or not (oh and ow and x_shape[3])
                or not _pk.tiles(x_shape, attrs["ksize"], attrs["strides"], attrs["pads"],
                                 oh, ow)):
            continue
        chain, s, reader = [], st.ins[0], k
        while s in at and s not in leaving and uses.get(s) == [reader]:
            j, cst, flags = item = at[s]
            if cst.prim.name not in _MONOTONE or _shape(meta, consts, s) != (x_shape, dtype):
                break
            if cst.prim.name != "Relu":
                if sum(flags) != 1 or cst.prim.name == "Sub" and not flags[0]:
                    break   # (b - x falls as x rises)
                b = _shape(meta, consts, cst.ins[flags.index(False)])
                if b[1] != dtype or any(d != 1 for d in b[0][:-1]):
                    break   # not constant along the window's axes, or a promotion
            chain.insert(0, item)
            s, reader = cst.ins[flags.index(True)], j
        conv = at.get(s) if s not in leaving and uses.get(s) == [reader] else None
        if conv is not None and not (
                conv[1].prim.name == "Conv2D" and conv[2] == (True, False)
                and set(conv[1].attrs or {}) == {"strides", "pads", "dilations"}
                and _shape(meta, consts, s) == (x_shape, dtype)
                and _shape(meta, consts, conv[1].ins[0])[1] == dtype):
            conv = None
        if chain or conv:
            found[k] = (conv, chain)
    return found


def _pool_first_kernel(pool, conv, chain, meta, consts, n):
    """The kernel of ``pool`` and the ``chain`` (and ``conv``) before it
    (:func:`_pools_first`): the tiled maxima of the chain's input (of the convolution's
    output computed window offset by offset), then the chain's steps in place on them, then
    the pool's NaN-window pass. ``xs`` = (the chain's input, or the convolution's input and
    filter; the chain's whole operands in order).

    Exact where the chain's ``f`` is non-decreasing: its adds' operands must be finite
    (``-inf + inf`` is NaN). Signed zeros: ``f`` gives -0.0 only where it is the identity
    bit for bit (a sum is -0.0 only when both terms are; a ReLU gives +0.0 for -0.0,
    ``_kernels.relu``; so after a ReLU or an add of anything but -0.0 no value is -0.0),
    and elsewhere equal values have equal bits, so a tie picks the same bits either way.
    A NaN of the input is skipped by the pool either way (``f(NaN)`` is NaN), except in a
    window of NaN only, which the op-by-op order gives as the lowest float and this one as
    ``f(lowest)``: the pooled maxima are checked, and when one is NaN or an operand is not
    finite, the chunk runs in the op-by-op order (the chain over the whole input, then the
    pool). A window whose ``f`` values are all -inf (overflow included) gets the pool's
    lowest float from the NaN-window pass after the chain."""
    return _PoolFirst(pool, conv, chain, meta, consts, n)


class _PoolFirst:
    """:func:`_pool_first_kernel`'s kernel: ``prepare(whole)`` once per call (the checks
    and the product's filter matrix, from the operands that are not cut: ``whole`` is the
    kernel's inputs with None for the batched ones), then ``self(xs, target, state)`` per
    chunk."""

    def __init__(self, pool, conv, chain, meta, consts, n):
        attrs = self.attrs = pool.attrs
        self.kh, self.kw = attrs["ksize"]
        self.oh, self.ow = _shape(meta, consts, pool.outs[0])[0][1:3]
        self.pool_fwd = pool.prim.forward
        first = 1 if conv is None else 2    # in xs, the chain's first whole operand
        steps, n_ops = [], first - 1    # (kernel, index in xs of its whole operand or 0, x first)
        for _, st, flags in chain:
            if st.prim.name == "Relu":
                steps.append((_kernel(st, meta, consts), 0, True))
            else:
                n_ops += 1
                steps.append((_kernel(st, meta, consts), n_ops, flags[0]))
        self.steps = steps
        # a ReLU's output is never below 0 (nor NaN here): no window pass after it
        self.last_relu = bool(chain) and chain[-1][1].prim.name == "Relu"
        self.conv = self.windows = None
        self.bias = 0     # index in xs of a bias that can ride in the product, or 0
        if conv is not None:
            self.conv = conv[1].attrs, conv[1].prim.forward
            x_shape, dtype = _shape(meta, consts, conv[1].ins[0])
            self.windows = WindowConv.plan(
                x_shape[1:], _shape(meta, consts, conv[1].ins[1])[0], dtype,
                window=(self.kh, self.kw), grid=(self.oh, self.ow), batch=n, **conv[1].attrs)
            if self.windows is not None and chain and chain[0][1].prim.name != "Relu":
                b = _shape(meta, consts, chain[0][1].ins[chain[0][2].index(False)])
                if (chain[0][1].prim.name in ("AddV2", "BiasAdd") and b[1] == dtype
                        and int(np.prod(b[0])) == self.windows.o):
                    self.bias = first     # (if it folds exactly: sized)
        self.whole = first + n_ops     # (xs[1:whole]: the operands not cut)

    def sized(self, rows):
        """The chunks have ``rows`` rows (a set of sizes): keep the bias in the product only
        if it gives the separate add's bits for each."""
        if self.bias and not all(self.windows.folds_exactly(m) for m in rows):
            self.bias = 0

    def prepare(self, whole):
        """``(filter matrix or None, steps to run after the pool, their operands finite)``
        for this call; None when one of them is made in the run (then each chunk makes its
        own)."""
        if any(v is None for v in whole[1:self.whole]):
            return None
        steps, matrix = self.steps, None
        if self.windows is not None and self.windows.usable(whole[1]):
            w = whole[1]
            if self.bias and np.isfinite(b := whole[self.bias]).all():
                matrix, steps = self.windows.matrix(w, b), steps[1:]
            else:
                matrix = self.windows.matrix(w)
        for _, i, _ in steps:
            if i and not np.isfinite(whole[i]).all():
                return matrix, steps, False
        return matrix, steps, True

    def __call__(self, xs, t, state=None):
        matrix, steps, exact = state or self.prepare(xs)
        kh, kw, oh, ow = self.kh, self.kw, self.oh, self.ow
        if matrix is not None:
            x, raw = None, _pk.window_max(self.windows(xs[0], matrix))
        else:
            x = xs[0] if self.conv is None else self.conv[1](xs[0], xs[1], **self.conv[0])
            raw = _pk.tiled_max(x, kh, kw, oh, ow)
        if not steps:
            return _into(t, _pk.nan_windows(raw))
        low = np.minimum.reduce(raw, axis=None)
        if low == low and exact:     # (no window of NaN only)
            y = _run(steps, raw, xs, raw)
            return _into(t, y if self.last_relu else _pk.nan_windows(y))
        # the op-by-op order (into fresh arrays: the input may be read elsewhere)
        if x is not None:
            return _into(t, self.pool_fwd(_run(steps, x, xs, None), **self.attrs))
        blocks = self.windows(xs[0], matrix)
        flat = blocks.reshape((-1,) + blocks.shape[3:])
        _run(steps, flat, xs, flat)
        return _into(t, _pk.nan_windows(_pk.window_max(blocks)))


def _run(steps, y, xs, target):
    for kernel, i, x_first in steps:
        if not i:
            y = kernel((y,), target)
        else:
            y = kernel((y, xs[i]) if x_first else (xs[i], y), target)
    return y


def _fresh_in_chunk(s, run):
    for _, st, _ in run:
        if s in st.outs:
            return st.prim.name in _FRESH
    return False


def _kernel(step, meta, consts):
    """``kernel(args, target) -> array`` computing ``step`` on one chunk; into ``target``
    (an array of the output's chunk shape) when given."""
    prim, attrs = step.prim, step.attrs or {}
    fwd, name = prim.forward, prim.name
    shapes = [_shape(meta, consts, s) for s in step.ins]
    out_dtype = _shape(meta, consts, step.outs[0])[1]
    if name == "Relu":
        return lambda xs, t: _kernels.relu(xs[0], out=t)
    uf = _UFUNCS.get(fwd) if name in _BINARY else None
    if uf is not None and all(d == out_dtype for _, d in shapes):
        (sa, _), (sb, _) = shapes
        if uf is np.add and len(sb) == 1 and len(sa) > 1 and sa[-1] == sb[0]:
            return lambda xs, t: _kernels.add_rows(xs[0], xs[1], out=t)
        if uf is np.add and len(sa) == 1 and len(sb) > 1 and sb[-1] == sa[0]:
            return lambda xs, t: _kernels.add_rows(xs[1], xs[0], out=t)
        return lambda xs, t: uf(xs[0], xs[1], out=t)
    if name == "Reshape":
        rest = tuple(_shape(meta, consts, step.outs[0])[0][1:])

        return lambda xs, t: _into(t, xs[0].reshape((xs[0].shape[0],) + rest))
    return lambda xs, t: _into(t, fwd(*xs, **attrs) if attrs else fwd(*xs))


def _into(target, y):
    """``y``, copied into ``target`` when one is given (a whole-batch output's chunk)."""
    if target is None:
        return y
    np.copyto(target, y)
    return target


def _runner(plan, ext_rows, n_local, specs, chunks, single):
    """The forward of the chunked step: ``fn(*ext) -> outputs``. A kernel with a
    ``prepare`` (:class:`_PoolFirst`) gets its per-call state, made once from the inputs not
    cut, as a third argument."""
    n_ext = len(ext_rows)
    prepared = [(j, step[0].prepare, step[1]) for j, step in enumerate(plan)
                if hasattr(step[0], "prepare")]

    def one(env_ext, outs, a, b, states):
        env = [None] * n_local
        for i, v in enumerate(env_ext):
            env[i] = v[a:b] if ext_rows[i] else v
        for (kernel, ins, o, leave, inplace, frees), state in zip(plan, states):
            if leave >= 0:
                target = outs[leave][a:b]
            elif inplace >= 0:
                target = env[inplace]
            else:
                target = None
            args = [env[i] for i in ins]
            env[o] = kernel(args, target) if state is None else kernel(args, target, state)
            for i in frees:
                env[i] = None

    def forward(*ext):
        outs = [np.empty(shape, dtype) for shape, dtype in specs]
        states = [None] * len(plan)
        for j, prepare, ins in prepared:
            states[j] = prepare([ext[i] if i < n_ext and not ext_rows[i] else None
                                 for i in ins])
        if _par.enabled():
            _par.run(lambda a, b: one(ext, outs, a, b, states), chunks)
        else:
            for a, b in chunks:
                one(ext, outs, a, b, states)
        return outs[0] if single else tuple(outs)
    forward.chunks = chunks     # (for the tests and the curious)
    return forward
