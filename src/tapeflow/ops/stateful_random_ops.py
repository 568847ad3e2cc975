"""``tf.random.Generator``: a Philox state in a Variable, advanced by every draw.

As in TensorFlow, the state is an int64 Variable ``[counter_low, counter_high, key]``;
``from_seed(s)`` starts at ``[s, 0, 0]``, and a draw of ``n`` numbers reads the state, then
moves the counter ``256 * n`` ahead. The draws are TensorFlow's (``philox.py``). Each draw is
a primitive that reads the state and gives the sample and the next state, which is
``assign``-ed: a traced function replays it and draws new numbers.
"""
import os

from .._core import dtypes as _dt
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable
from .._core.tensor import _TensorLike, convert_to_tensor
from .._core.variable import ResourceVariable, Variable
from . import array_ops as _a
from . import math_ops as _m
from . import stateless_random_ops as _sl
from ._helpers import shape_tuple

__all__ = ["Generator", "get_global_generator", "set_global_generator", "Algorithm"]

_PHILOX = 1
_MASK32 = 0xFFFFFFFF


class Algorithm:
    """The RNG algorithms (``tf.random.Algorithm``); tapeflow implements PHILOX."""

    PHILOX = _PHILOX
    THREEFRY = 2
    AUTO_SELECT = 3


def _words(state):
    s = [int(x) % (1 << 64) for x in state.tolist()]
    counter = [s[0] & _MASK32, s[0] >> 32, s[1] & _MASK32, s[1] >> 32]
    return [s[2] & _MASK32, s[2] >> 32], counter


def _advance(state, n):
    counter = (int(state[0]) % (1 << 64)) | ((int(state[1]) % (1 << 64)) << 64)
    counter = (counter + 256 * n) % (1 << 128)
    return np.array([counter & ((1 << 64) - 1), counter >> 64, int(state[2]) % (1 << 64)],
                    np.uint64).view(np.int64)


def _replica_key(key, replica_id):
    """TF's per-replica key: one Philox uint64 keyed by the state's key, counted by
    ``[replica_id, 0]`` ("key = hash(key, replica_id)")."""
    rid = int(replica_id) % (1 << 64)
    k = int(_sl.full_ints(key, [rid & _MASK32, rid >> 32, 0, 0], 1, np.uint64)[0])
    return [k & _MASK32, k >> 32]


def _draw_forward(state, shape, kind, dtype, lo=None, hi=None, replica=None):
    key, counter = _words(state)
    if replica is not None:
        key = _replica_key(key, replica)
    n = int(np.prod(shape)) if shape else 1
    if kind == "int":
        out = _sl.uniform_ints(key, counter, n, lo, hi, dtype)
    elif kind == "full":
        out = _sl.full_ints(key, counter, n, dtype)
    else:
        out = _sl.bits(kind, key, counter, n, dtype)
    return out.reshape(shape), _advance(state, n)


_DRAW = nondifferentiable("StatefulRandomV2", _draw_forward, n_outputs=2)


def _draw_replicas_forward(state, copies, shape, kind, dtype, lo=None, hi=None):
    """A draw of a generator made under a strategy of N local replicas: replica 0's state
    is ``state``, replica k's row k-1 of ``copies``. In a replica the replica's own state
    is read and advanced and the key hashed with its replica id; in cross-replica context
    (no replica) the key is not hashed and every replica's state advances, as TF's
    ``extended.update``. The replica is read when the draw runs, so a traced function
    replayed in each replica draws that replica's numbers."""
    replica = _replica_fn[0]() if _replica_fn else None
    copies = copies.copy()
    if replica is None or replica[1] == 0:
        out, new_state = _draw_forward(state, shape, kind, dtype, lo, hi,
                                       None if replica is None else replica[0])
        if replica is None:
            n = int(np.prod(shape)) if shape else 1
            for i in range(len(copies)):
                copies[i] = _advance(copies[i], n)
        return out, new_state, copies
    row = replica[1] - 1
    out, copies[row] = _draw_forward(copies[row], shape, kind, dtype, lo, hi, replica[0])
    return out, state, copies


_DRAW_REPLICAS = nondifferentiable("StatefulRandomV2Replicas", _draw_replicas_forward,
                                   n_outputs=3)

# ``fn() -> (strategy or None, (replica id in sync, local replica index) or None in
# cross-replica context, number of local replicas)``: registered by tf.distribute
# (``distribute/_context.py``) so this floor learns of strategies without importing them.
_replica_fn = []
_strategy_fn = []


def register_distribution(strategy_fn, replica_fn):
    """``strategy_fn() -> (strategy, local replicas)`` or None outside any strategy;
    ``replica_fn() -> (replica id in sync, local index)`` or None in cross-replica
    context."""
    _strategy_fn[:] = [strategy_fn]
    _replica_fn[:] = [replica_fn]


def _make_state(seed):
    if isinstance(seed, _TensorLike):
        seed = seed._value
    seed = np.asarray(seed).reshape(-1).tolist()
    if len(seed) == 1:
        s = int(seed[0])
        if s < 0:
            return np.full(3, -1, np.int64)
        words = [(s >> (64 * i)) % (1 << 64) for i in range(3)]
        return np.array(words, np.uint64).view(np.int64)
    state = np.zeros(3, np.int64)
    state[:len(seed)] = seed[:3]
    return state


class _StateVar(ResourceVariable):
    """A generator's state: setting it (``reset``, a checkpoint's restore) sets every
    replica's copy, as restoring TF's mirrored state does; draws bypass this."""

    __slots__ = ("_copies",)
    _mirror_as_tf_variable = True
    _tf_path = ResourceVariable.__dict__.get("_tf_path")

    def assign(self, value, *args, **kwargs):
        out = super().assign(value, *args, **kwargs)
        copies = self._copies
        if copies is not None:
            Variable.assign(copies, np.tile(self._value, (copies._value.shape[0], 1)))
        return out


class Generator:
    """A random number generator whose state is a Variable (``tf.random.Generator``).

    Make one with :meth:`from_seed`, :meth:`from_state` or
    :meth:`from_non_deterministic_state`. The numbers are TensorFlow's for the same seed.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.random.Generator.from_seed(1)
        >>> g.normal([2]).numpy().round(4)
        array([ 0.4384, -0.5344], dtype=float32)
        >>> g.state.numpy()
        array([513,   0,   0])
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state = copy_from.state.numpy()
            alg = copy_from.algorithm
        if state is None:
            raise ValueError("Generator needs `copy_from` or `state`.")
        self._alg = _alg(alg)
        if isinstance(state, _TensorLike):
            state = state.numpy()
        state = np.asarray(state, np.int64).reshape(-1)
        under = _strategy_fn[0]() if _strategy_fn else None
        self._distribution_strategy = under[0] if under else None
        self._state_var = _StateVar(state, trainable=False, name="StateVar")
        self._state_var._copies = None
        if under and under[1] > 1:
            # one state per local replica, all starting here; the extra ones private
            self._state_var._copies = Variable(np.tile(state, (under[1] - 1, 1)),
                                               trainable=False, name="StateVar_replicas")

    @classmethod
    def from_seed(cls, seed, alg=None) -> "Generator":
        """A generator whose state is ``[seed, 0, 0]`` (an integer seed), as TensorFlow's."""
        return cls(state=_make_state(seed), alg=alg)

    @classmethod
    def from_state(cls, state, alg) -> "Generator":
        """A generator with the given int64 ``[3]`` state."""
        return cls(state=np.asarray(state, np.int64), alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg) -> "Generator":
        """A generator from a key (one int) and a counter (two ints)."""
        counter = list(np.asarray(counter).reshape(-1))
        return cls(state=np.array(counter + [int(np.asarray(key).reshape(-1)[0])], np.int64),
                   alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None) -> "Generator":
        """A generator seeded from the operating system's entropy."""
        words = np.frombuffer(os.urandom(24), np.int64).copy()
        return cls(state=words, alg=alg)

    @property
    def state(self) -> Variable:
        """The state Variable (int64 ``[3]``)."""
        return self._state_var

    @property
    def algorithm(self) -> int:
        return self._alg

    @property
    def key(self):
        return self._state_var[-1]

    def reset(self, state):
        """Set the state."""
        self._state_var.assign(convert_to_tensor(np.asarray(state, np.int64)))

    def reset_from_seed(self, seed):
        """Set the state as :meth:`from_seed` makes it."""
        self._state_var.assign(convert_to_tensor(_make_state(seed)))

    def reset_from_key_counter(self, key, counter):
        counter = list(np.asarray(counter).reshape(-1))
        self.reset(counter + [int(np.asarray(key).reshape(-1)[0])])

    def _trackable_children(self):
        # a checkpoint holds the state (replica 0's under a strategy), as TF's AutoTrackable
        return [("_state_var", self._state_var)]

    def _draw(self, shape, kind, dtype, **attrs):
        var = self._state_var
        copies = var._copies
        if self._distribution_strategy is not None and copies is None:
            # a strategy of one local replica: the key is still hashed with the replica
            replica = _replica_fn[0]() if _replica_fn else None
            if replica is not None:
                attrs["replica"] = replica[0]
        if copies is None:
            out, new_state = apply(_DRAW, (var,),
                                   dict(shape=shape, kind=kind, dtype=dtype, **attrs))
            Variable.assign(var, new_state)   # every replica's draw moves a plain state
            return out
        out, new_state, new_copies = apply(_DRAW_REPLICAS, (var, copies),
                                           dict(shape=shape, kind=kind, dtype=dtype, **attrs))
        Variable.assign(var, new_state)
        Variable.assign(copies, new_copies)
        return out

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None):
        """Normal samples ``mean + stddev * z`` (``Generator.normal``)."""
        dtype = _dt.as_dtype(dtype)
        z = self._draw(shape_tuple(shape), "normal", dtype._np)
        return _sl._affine(z, mean, stddev, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None):
        """Normal samples within two standard deviations (``Generator.truncated_normal``)."""
        dtype = _dt.as_dtype(dtype)
        z = self._draw(shape_tuple(shape), "truncated", dtype._np)
        return _sl._affine(z, mean, stddev, dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=_dt.float32, name=None):
        """Uniform samples in ``[minval, maxval)`` (``Generator.uniform``).

        Raises:
            ValueError: for an integer dtype without ``maxval``.
        """
        dtype = _dt.as_dtype(dtype)
        shape = shape_tuple(shape)
        if dtype.is_integer:
            if maxval is None:
                if minval is None:
                    return self.uniform_full_int(shape, dtype)
                raise ValueError("Must specify maxval for integer dtype "
                                 f"{dtype!r}")
            lo, hi = (int(v._value) if isinstance(v, _TensorLike) else int(v)
                      for v in (minval, maxval))
            return self._draw(shape, "int", dtype._np, lo=lo, hi=hi)
        u = self._draw(shape, "uniform", dtype._np)
        maxval = 1 if maxval is None else maxval
        lo, hi = (v if isinstance(v, _TensorLike) else convert_to_tensor(v, dtype)
                  for v in (minval, maxval))
        return _m.add(_m.multiply(u, _m.subtract(hi, lo)), lo)

    def uniform_full_int(self, shape, dtype=_dt.uint64, name=None):
        """Integers over the whole range of ``dtype`` (``Generator.uniform_full_int``)."""
        return self._draw(shape_tuple(shape), "full", _dt.as_dtype(dtype)._np)

    def make_seeds(self, count=1):
        """``[2, count]`` int64 seeds for stateless ops (``Generator.make_seeds``)."""
        keys = self.uniform_full_int([count], _dt.int64)
        return _a.stack([keys, _a.zeros_like(keys)])

    def split(self, count=1) -> list:
        """``count`` new generators, each keyed by a number drawn from this one."""
        keys = self.uniform_full_int([count], _dt.int64)
        return [Generator(state=np.array([0, 0, k], np.int64), alg=self._alg)
                for k in keys.numpy().tolist()]


def _alg(alg):
    if alg is None or alg in (_PHILOX, "philox", Algorithm.AUTO_SELECT, "auto_select"):
        return _PHILOX
    raise ValueError(f"Unsupported algorithm {alg!r}: tapeflow implements Philox only.")


_global = {"generator": None}


def get_global_generator() -> Generator:
    """The process's generator (``tf.random.get_global_generator``), non-deterministic
    unless set with :func:`set_global_generator`."""
    if _global["generator"] is None:
        _global["generator"] = Generator.from_non_deterministic_state()
    return _global["generator"]


def set_global_generator(generator):
    """Replace the global generator (``tf.random.set_global_generator``)."""
    _global["generator"] = generator
