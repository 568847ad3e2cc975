"""``Conv2D``'s output at the positions that tiling pooling windows read, window offset by
offset, planned once for fixed shapes: the kernel of ``function/batch_chunks.py``'s pooling
of a convolution (moved here from ``nn_conv_ops``, which is at its size limit).

:class:`WindowConv` is made when a fixed-shape program is compiled. Everything that depends
only on the shapes (the patch view's strides, the padding, which kernel the op-by-op forward
would use) is worked out then; a call is a patch copy into a per-thread buffer and one matrix
product into another (about 7 us of Python a call, where the general path of session 12
spent 15 us working the same things out again for each chunk).

With few channels (the transposed patch matrix, one row per filter tap) a patch row is a
run of the input's elements spaced by the window grid, copied in short runs (13 floats for
the benchmark CNN's first convolution). When the windows' rows and columns of taps overlap
much (window offset plus filter tap hitting the same input offset), the input is first
copied into its *phase planes*, plane ``(u, v)`` holding the elements at row and column
offset ``(u, v)`` of every window, and each patch row is then one contiguous plane: the
benchmark CNN's first convolution, 16 planes for 36 rows, 118 -> 95 us a 16-image chunk.

A bias added right after the convolution can ride in the product: one more row of the
filter matrix, and a column of ones in the patch matrix. OpenBLAS's kernels sum a product's
terms one after the other in one accumulator per output (a fused multiply-add each), so the
last term ``1 * b`` gives ``round(sum + b)``, the bits of the separate add, and the add's
pass over the output is saved. That is checked once per shape on this machine's BLAS
(:meth:`WindowConv.folds_exactly`), and the bias is folded only when it is finite (a NaN's
payload would then depend on the operand order).
"""
import builtins
import threading

from .._core.backend import np
from . import _parallel as _par
from . import winograd as _wg
from .nn_conv_ops import _immutable, _out_size, _padded, _resolve, _strided

__all__ = ["WindowConv"]

_FOLDS = {}   # (shapes, dtype, n) -> whether a folded bias gives the separate add's bits


class WindowConv:
    """``Conv2D(x, w)`` at the positions read by ``window`` = (ph, pw) tiling pooling
    windows on a ``grid`` = (gh, gw), for inputs ``[n, H, W, C]`` of one ``in_shape`` =
    (H, W, C) and filters of ``w_shape`` (kh, kw, C, O), both of ``dtype``:
    ``conv(x, matrix) -> [ph, pw, n, gh, gw, O]``, block ``[i, j]`` holding output position
    ``(r * ph + i, s * pw + j)`` at ``[..., r, s, :]``. Each value is the op-by-op forward's
    bit for bit (the same rows of the same patch matrix, in another order). The result lives
    in this thread's buffer until the next call with the same ``n``.

    :meth:`plan` gives None where the forward would use another kernel for these shapes
    (the 1x1 product, Winograd at every call), another dtype, or the windows do not fit;
    :meth:`usable` is the check of each call's filter (Winograd for an immutable filter,
    the masked kernel for a non-finite filter with padding). ``batch``: the whole batch's
    size, which the op-by-op forward decides Winograd by.
    """

    __slots__ = ("kh", "kw", "c", "o", "strides", "dilations", "pads", "window", "grid",
                 "dtype", "transposed", "winograd", "padded", "_local", "in_shape", "phases")

    @classmethod
    def plan(cls, in_shape, w_shape, dtype, strides, pads, dilations, window, grid, batch):
        dtype = np.dtype(dtype)
        h, w, c = in_shape
        kh, kw, wc, o = w_shape
        if wc != c or dtype.char not in "fd" or not (h and w and c and o):
            return None
        strides, dilations = tuple(strides), tuple(dilations)
        pads = _resolve(pads, (h, w), (kh, kw), strides, dilations)
        oh = _out_size(h, kh, strides[0], dilations[0], *pads[0])
        ow = _out_size(w, kw, strides[1], dilations[1], *pads[1])
        (ph, pw), (gh, gw) = window, grid
        if not (0 < gh * ph <= oh and 0 < gw * pw <= ow):
            return None
        if kh == kw == 1 and c > 3 and strides == (1, 1) and (oh, ow) == (h, w):
            return None     # (the forward's 1x1 product: the image is its patch matrix)
        # the forward's Winograd (ops/winograd.py) for these shapes: always, or only for a
        # filter nothing can change (checked at each call: usable)
        winograd = (kh == kw == 3 and strides == (1, 1) and dilations == (1, 1)
                    and dtype == np.float32 and _wg.MODE != "off"
                    and _wg.worth_it(batch, oh, ow, c, o))
        if winograd and _wg.MODE == "all":
            return None
        self = cls.__new__(cls)
        self.kh, self.kw, self.c, self.o = kh, kw, c, o
        self.in_shape = (h, w, c)
        self.strides, self.dilations, self.pads = strides, dilations, pads
        self.window, self.grid = (ph, pw), (gh, gw)
        self.dtype, self.transposed = dtype, c <= 3     # as nn_conv_ops._im2col
        self.winograd = winograd      # (then only for a filter that can change)
        self.padded = _padded(pads)
        # few channels: the patch rows gathered from the input's phase planes (see the
        # module's docstring), where they are fewer than half the patch rows
        u = (ph - 1) * strides[0] + (kh - 1) * dilations[0] + 1
        v = (pw - 1) * strides[1] + (kw - 1) * dilations[1] + 1
        self.phases = (u, v) if self.transposed and 2 * u * v <= kh * kw * ph * pw else None
        self._local = threading.local()
        return self

    def usable(self, w):
        """Whether the op-by-op forward would take im2col + product for filter ``w``."""
        if w.dtype != self.dtype or self.winograd and _immutable(w):
            return False
        return not (self.padded and w.dtype == np.float32 and not np.isfinite(w).all())

    def matrix(self, w, b=None):
        """The product's right side: ``w`` as ``[kh*kw*C, O]``, with ``b`` ([O], any shape
        of O values) as one more row when given."""
        k = self.kh * self.kw * self.c
        if b is None:
            return w.reshape(k, self.o)
        m = np.empty((k + 1, self.o), self.dtype)
        m[:k] = w.reshape(k, self.o)
        m[k] = b.reshape(self.o)
        return m

    def _buffers(self, n):
        """This thread's (padded input or None, patch copy target, product's left side
        without and with the ones, product's output) for chunks of ``n`` rows."""
        got = self._local.__dict__.get(n)
        if got is not None:
            return got
        (ph, pw), (gh, gw) = self.window, self.grid
        kh, kw, c, o = self.kh, self.kw, self.c, self.o
        k, m = kh * kw * c, ph * pw * n * gh * gw
        if self.transposed:
            cols = np.empty((k + 1, m), self.dtype)
            cols[k] = 1
            target = cols[:k].reshape(kh, kw, c, ph, pw, n, gh, gw)
            left, left_ones = cols[:k].T, cols.T
        else:
            cols = np.empty((m, k + 1), self.dtype)
            cols[:, k] = 1
            target = cols[:, :k].reshape(ph, pw, n, gh, gw, kh, kw, c)
            left, left_ones = cols[:, :k], cols
        xp = None
        if self.padded:
            ((pt, pb), (pl, pr)) = self.pads
            h, w, _ = self.in_shape
            xp = np.zeros((n, h + pt + pb, w + pl + pr, c), self.dtype)
        out = np.empty((ph, pw, n, gh, gw, o), self.dtype)
        planes = None
        if self.phases is not None:
            (sh, sw), (dh, dw) = self.strides, self.dilations
            planes = np.empty(self.phases + (c, n, gh, gw), self.dtype)
            q0, q1, q2 = planes.strides[:3]
            # patch row (i, j, c) of window offset (ph, pw): plane (ph*sh + i*dh, pw*sw +
            # j*dw, c), whose (n, gh, gw) block is contiguous: one long run each
            rows = _strided(planes, (kh, kw, c, ph, pw, n * gh * gw),
                            (q0 * dh, q1 * dw, q2, q0 * sh, q1 * sw, planes.itemsize))
            planes = (planes, rows, target.reshape(kh, kw, c, ph, pw, n * gh * gw))
        got = self._local.__dict__[n] = (xp, target, left, left_ones, out, planes)
        return got

    def __call__(self, x, matrix):
        """The blocks ``[ph, pw, n, gh, gw, O]`` of ``x`` ([n, H, W, C]) by ``matrix`` (from
        :meth:`matrix`; a bias row is used when it has one)."""
        n = x.shape[0]
        xp, target, left, left_ones, out, planes = self._buffers(n)
        if xp is not None:
            ((pt, _), (pl, _)) = self.pads
            xp[:, pt:pt + x.shape[1], pl:pl + x.shape[2], :] = x
            x = xp
        (sh, sw), (dh, dw) = self.strides, self.dilations
        (ph, pw), (gh, gw) = self.window, self.grid
        s0, s1, s2, s3 = x.strides
        at = (s1 * sh, s2 * sw, s0, s1 * sh * ph, s2 * sw * pw)   # i, j, image, r, s
        taps = (s1 * dh, s2 * dw, s3)
        if planes is not None:
            # the phase planes: plane (u, v, c)[b, r, s] = x[b, r*sh*ph + u, s*sw*pw + v, c]
            u, v = self.phases
            np.copyto(planes[0], _strided(x, (u, v, self.c, n, gh, gw), (s1, s2, s3) + at[2:]))
            np.copyto(planes[2], planes[1])
        elif self.transposed:
            view = _strided(x, (self.kh, self.kw, self.c, ph, pw, n, gh, gw), taps + at)
            np.copyto(target, view)
        else:
            view = _strided(x, (ph, pw, n, gh, gw, self.kh, self.kw, self.c), at + taps)
            np.copyto(target, view)
        ones = matrix.shape[0] != self.kh * self.kw * self.c
        np.matmul(left_ones if ones else left, matrix, out=out.reshape(-1, self.o))
        return out

    def folds_exactly(self, n):
        """Whether a bias row in the product gives the bits of the product and a separate
        add (random operands of these shapes, once per shape and process), with OpenBLAS at
        one thread, as the chunks run it (and its threads not woken: once woken they spin
        for a while, on the core the chunks' helper thread needs)."""
        key = (self.in_shape, self.kh, self.kw, self.o, self.strides, self.dilations,
               self.pads, self.window, self.grid, self.dtype.char, n)
        got = _FOLDS.get(key)
        if got is None:
            rng = np.random.default_rng(0)
            x = rng.standard_normal((n,) + self.in_shape).astype(self.dtype)
            w = rng.standard_normal((self.kh, self.kw, self.c, self.o)).astype(self.dtype)
            b = rng.standard_normal(self.o).astype(self.dtype)
            split = _par.one_blas_thread(self, x, self.matrix(w)) + b
            got = _FOLDS[key] = builtins.bool(np.array_equal(
                _par.one_blas_thread(self, x, self.matrix(w, b)), split))
        return got

