"""Large NumPy kernels on two cores: a kernel's work cut into chunks that the calling thread
and one helper thread take in turn (NumPy's copies and BLAS products release the GIL).

Used by the convolutions (``nn_conv_ops``: im2col + product, Winograd) for products of
:data:`MIN_WORK` multiply-adds or more; a batch-1 call of a small model never reaches it.
The helper thread starts on first use, so ``import tapeflow``, the tests and small programs
never start it.

Why not OpenBLAS's own threads: OpenBLAS splits one product into fixed shares, one per
thread, and waits for all of them; on a shared, oversubscribed machine one descheduled
thread stalls the product 10-50x (``benchmarks/NOTES.md``, sessions 8-9). Here the chunks
are taken in turn, smaller than the work: a caller whose helper is descheduled takes the
remaining chunks itself and waits only for the one chunk the helper holds. While the chunks
run, OpenBLAS is set to one thread (restored after), so the two threads do not also share
OpenBLAS's pool; so are convolutions too small to cut but large enough for OpenBLAS to split
(:data:`BLAS_THREADED`): under load they stalled as the large ones did (MobileNetV2 at
batch 1, load 16: 270-310 ms per call with only the large products cut, 150-205 ms with
OpenBLAS at one thread throughout, 1.0-2.2 s as it was).

``TAPEFLOW_KERNEL_THREADS=1`` in the environment turns the helper off (every kernel then
runs on the calling thread, with OpenBLAS's own threading, as before).
"""
import itertools
import os
import threading

__all__ = ["run", "one_blas_thread", "enabled", "MIN_WORK", "BLAS_THREADED"]

MIN_WORK = 1 << 22      # multiply-adds below which one thread does the whole kernel
# OpenBLAS threads a product of m * n * k >= 65536 * GEMM_MULTITHREAD_THRESHOLD (4)
# multiply-adds (interface/gemm.c): the kernels between this and MIN_WORK run on the calling
# thread with OpenBLAS at one thread (:func:`one_blas_thread`)
BLAS_THREADED = 1 << 18
_STATE = {"queue": None}
_START = threading.Lock()
_LOCAL = threading.local()   # .busy: this thread is running a chunk of a job


def enabled():
    """Whether kernels may use the helper thread (two or more cores, not turned off, and
    not already inside a chunk: a kernel run in a chunk, as ``function/batch_chunks.py``'s
    chunks run convolutions, runs whole on its thread)."""
    on = _STATE.get("on")
    if on is None:
        on = _STATE["on"] = (os.environ.get("TAPEFLOW_KERNEL_THREADS", "2") != "1"
                             and (os.cpu_count() or 1) >= 2)
    return on and not getattr(_LOCAL, "busy", False)


class _Job:
    __slots__ = ("fn", "chunks", "order", "left", "lock", "done", "error")

    def __init__(self, fn, chunks):
        self.fn, self.chunks = fn, chunks
        self.order = itertools.count()     # next() is atomic under the GIL
        self.left = len(chunks)
        self.lock = threading.Lock()
        # held until the last chunk is done: the caller waits by acquiring it (a bare lock,
        # not an Event: its Condition costs some 10 us of Python a call, set and wait)
        self.done = threading.Lock()
        self.done.acquire()
        self.error = None

    def work(self):
        n = len(self.chunks)
        busy = getattr(_LOCAL, "busy", False)
        _LOCAL.busy = True
        try:
            while True:
                i = next(self.order)
                if i >= n:
                    return
                try:
                    self.fn(*self.chunks[i])
                except BaseException as e:  # noqa: BLE001 - re-raised in the caller
                    self.error = e
                with self.lock:
                    self.left -= 1
                    if not self.left:
                        self.done.release()
        finally:
            _LOCAL.busy = busy


def _helper(queue):
    while True:
        queue.get().work()


def _start():
    import queue as _queue
    with _START:
        if _STATE["queue"] is None:
            q = _queue.SimpleQueue()
            threading.Thread(target=_helper, args=(q,), name="tapeflow-kernels",
                             daemon=True).start()
            _STATE["queue"] = q
    return _STATE["queue"]


def _blas():
    with _START:
        if "blas" not in _STATE:
            _STATE["blas"] = _blas_threads_control()
    return _STATE["blas"]


def _blas_threads_control():
    """``(get, set)`` of the OpenBLAS NumPy is linked against, or None (another BLAS, or not
    found: its threading is then left alone)."""
    try:
        import ctypes

        from .._core.backend import np
        core = getattr(np, "_core", None) or np.core
        lib = ctypes.CDLL(core._multiarray_umath.__file__)
    except (ImportError, OSError, AttributeError):
        return None
    for prefix, suffix in (("scipy_openblas_", "64_"), ("scipy_openblas_", ""),
                           ("openblas_", "64_"), ("openblas_", "")):
        try:
            get = getattr(lib, f"{prefix}get_num_threads{suffix}")
            put = getattr(lib, f"{prefix}set_num_threads{suffix}")
        except AttributeError:
            continue
        get.restype, get.argtypes = ctypes.c_int, []
        put.restype, put.argtypes = None, [ctypes.c_int]
        return get, put
    return None


def one_blas_thread(fn, *args):
    """``fn(*args)`` with OpenBLAS at one thread (restored after): a product too small to
    cut into chunks, but that OpenBLAS would still split between its threads, and so stall
    on an oversubscribed machine."""
    blas = _STATE["blas"] if "blas" in _STATE else _blas()
    before = blas[0]() if blas is not None else 1
    if before <= 1:
        return fn(*args)
    blas[1](1)
    try:
        return fn(*args)
    finally:
        blas[1](before)


def run(fn, chunks):
    """``fn(*chunk)`` for every chunk, on this thread and the helper; returns when all are
    done, raising the first error one raised. Chunks must write disjoint outputs."""
    q = _STATE["queue"] or _start()
    job = _Job(fn, chunks)
    blas = _STATE["blas"] if "blas" in _STATE else _blas()
    before = blas[0]() if blas is not None else 1
    if before > 1:
        blas[1](1)
    try:
        q.put(job)
        job.work()
        job.done.acquire()
    finally:
        if before > 1:
            blas[1](before)
    if job.error is not None:
        raise job.error
