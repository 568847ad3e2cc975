"""Transformations that choose, order or count elements: ``shuffle``, ``repeat``,
``take``, ``skip``, ``concatenate``, ``enumerate``, ``shard``, ``choose_from_datasets``,
``sample_from_datasets``, ``rejection_resample`` (TF's ``shuffle_op.py``, ...)."""
import itertools

from ..._core import dtypes as _dt
from ..._core.backend import np
from ..._core.tensor import _TensorLike
from ..._core.tensor_spec import TensorSpec
from ...ops import philox as _philox
from ...ops import random_ops as _random
from ..structure import (
    INFINITE,
    UNKNOWN,
    _call,
    _chunks,
    _dims,
    _eager,
    _int64,
    _op_error,
    _seeded_rng,
    _to_numpy,
)

# The Dataset class: data/dataset.py sets it when it loads (it imports this module, so
# this module cannot import it).
Dataset = None


class _ShuffleSeeds:
    """The seeds of a shuffle's iterators, as TensorFlow's ``ShuffleDatasetV3`` makes them.

    The dataset's seed pair comes from ``tf.random``'s ``get_seed`` when ``shuffle`` is
    called (no seed at all: fresh entropy). With ``reshuffle_each_iteration`` each new
    iterator takes the next two 32-bit words of a Philox stream keyed by that pair
    (TensorFlow's ``RandomSeedGenerator``); otherwise every iterator uses the pair itself.
    Exposes ``bit_generator.state`` (the pair and how many iterator pairs were drawn) for
    the iterator's checkpoint, as the other datasets' NumPy generators."""

    def __init__(self, seed, reshuffle):
        s1, s2 = _random.get_seed(seed)
        s1, s2 = s1 or 0, s2 or 0
        if s1 == 0 and s2 == 0:
            import os
            s1, s2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        self.pair, self.reshuffle, self.drawn = (s1, s2), reshuffle, 0

    @property
    def bit_generator(self):
        return self

    @property
    def state(self):
        """``[seed, seed2, pairs drawn]`` (JSON), what an iterator's checkpoint keeps."""
        return [self.pair[0], self.pair[1], self.drawn]

    @state.setter
    def state(self, value):
        s1, s2, drawn = value
        self.pair, self.drawn = (int(s1), int(s2)), int(drawn)

    def next_pair(self):
        if not self.reshuffle:
            return self.pair
        j = 2 * self.drawn   # words j and j + 1 of the stream (j even: one counter)
        self.drawn += 1
        words = list(itertools.islice(_words(self.pair, j // 4, 1), j % 4, j % 4 + 2))
        return words[0], words[1]


def unread_iterator(dataset):
    """What making an iterator of ``dataset`` and never reading it draws: each
    reshuffling ``shuffle`` upstream takes its next seed pair, as TensorFlow's seed
    generator gives one to every iterator made (Keras's epoch iterator makes such a one at
    the end of each epoch). Nothing else is computed."""
    for box in dataset._rngs:
        if isinstance(box[0], _ShuffleSeeds):
            box[0].next_pair()


def _words(pair, first=0, chunk=256):
    """The 32-bit words of ``PhiloxRandom(seed, seed2)`` one by one (TensorFlow's
    ``SingleSampleAdapter``), from counter ``first`` on, ``chunk`` counters at a time."""
    s1, s2 = (int(v) % (1 << 64) for v in pair)
    key, counter = [s1 & 0xFFFFFFFF, s1 >> 32], [0, 0, s2 & 0xFFFFFFFF, s2 >> 32]
    block = first
    while True:
        yield from _philox.philox(key, _philox.skip(counter, block), chunk).tolist()
        block += chunk


def _tf_shuffled(items, buffer_size, pair):
    """``items`` in the order of TensorFlow's shuffle iterator seeded by ``pair``: a ring
    buffer filled to ``buffer_size`` before each output; the output is the element at a
    uniformly drawn offset (one word modulo the count) from the oldest, whose slot then
    takes the oldest element."""
    words = _words(pair)
    buf, start, end = {}, 0, 0
    it = iter(items)
    live = True
    while True:
        while live and end - start < buffer_size:
            for item in it:
                buf[end % buffer_size] = item
                end += 1
                break
            else:
                live = False
        if end == start:
            return
        index = (start + next(words) % (end - start)) % buffer_size
        yield buf[index]
        buf[index] = buf.pop(start % buffer_size)
        start += 1


def shuffle(input_dataset, buffer_size, seed=None, reshuffle_each_iteration=True,
            name=None) -> "Dataset":
    buffer_size = _int64(buffer_size)
    if buffer_size == UNKNOWN:  # TensorFlow's UNKNOWN_CARDINALITY: the whole dataset
        buffer_size = np.iinfo(np.int64).max
    if buffer_size < 1:
        raise _op_error("buffer_size must be greater than zero or UNKNOWN_CARDINALITY",
                        "ShuffleDatasetV3")
    # [seeds, their first state]: an iterator's checkpoint records and restores both.
    seeds = _ShuffleSeeds(seed, reshuffle_each_iteration)
    rng_box = [seeds, 0]

    def order(items):
        return _tf_shuffled(items, buffer_size, seeds.next_pair())

    if input_dataset._indices is not None:
        parent = input_dataset._indices
        n = input_dataset._cardinality

        def indices():
            return np.fromiter(order(parent().tolist()), dtype=np.int64, count=n)
        ds = Dataset._over_indices(input_dataset._arrays, indices, n)
    else:
        ds = Dataset(lambda: order(input_dataset._make_iter()), input_dataset._cardinality,
                     input_dataset._spec_fn)
    ds._kind, ds._rngs = "_ShuffleDataset", input_dataset._rngs + (rng_box,)
    return ds


def repeat(input_dataset, count=None, name=None) -> "Dataset":
    count = None if count is None or _int64(count) < 0 else _int64(count)
    parent = input_dataset._make_iter
    card = input_dataset._cardinality
    if count is None:
        card = INFINITE if card != 0 else 0
    elif card >= 0:
        card *= count

    def it():
        passes = itertools.count() if count is None else range(count)
        for _ in passes:
            empty = True
            for element in parent():
                empty = False
                yield element
            if empty:
                return
    ds = Dataset(it, card, input_dataset._spec_fn)
    ds._kind, ds._rngs = "_RepeatDataset", input_dataset._rngs
    return ds


def take(input_dataset, count, name=None) -> "Dataset":
    count = _int64(count)
    if count < 0:
        return input_dataset
    card = input_dataset._cardinality
    card = count if card == INFINITE else (min(card, count) if card >= 0 else UNKNOWN)
    if input_dataset._indices is not None:
        parent = input_dataset._indices
        ds = Dataset._over_indices(input_dataset._arrays, lambda: parent()[:count], card)
    else:
        parent = input_dataset._make_iter
        ds = Dataset(lambda: itertools.islice(parent(), count), card, input_dataset._spec_fn)
    ds._kind, ds._rngs = "_TakeDataset", input_dataset._rngs
    return ds


def skip(input_dataset, count, name=None) -> "Dataset":
    count = _int64(count)
    card = input_dataset._cardinality
    if card >= 0:
        card = max(card - count, 0) if count >= 0 else 0
    if input_dataset._indices is not None and count >= 0:
        parent = input_dataset._indices
        ds = Dataset._over_indices(input_dataset._arrays, lambda: parent()[count:], card)
    else:
        parent = input_dataset._make_iter
        stop = None if count >= 0 else 0
        ds = Dataset(lambda: itertools.islice(parent(), max(count, 0), stop), card,
                     input_dataset._spec_fn)
    ds._kind, ds._rngs = "_SkipDataset", input_dataset._rngs
    return ds


def concatenate(input_dataset, dataset, name=None) -> "Dataset":
    a, b = input_dataset._make_iter, dataset._make_iter
    c1, c2 = input_dataset._cardinality, dataset._cardinality
    card = INFINITE if INFINITE in (c1, c2) else (
        UNKNOWN if UNKNOWN in (c1, c2) else c1 + c2)
    ds = Dataset(lambda: itertools.chain(a(), b()), card, input_dataset._spec_fn)
    ds._kind, ds._rngs = "_ConcatenateDataset", input_dataset._rngs + dataset._rngs
    return ds


def enumerate_dataset(input_dataset, start=0, name=None) -> "Dataset":
    counter = Dataset(lambda: (np.int64(i) for i in itertools.count(start)), INFINITE)
    ds = Dataset.zip(counter, input_dataset)
    ds._kind = "_EnumerateDataset"  # zip kept input_dataset._rngs
    return ds


def shard(input_dataset, num_shards, index, name=None) -> "Dataset":
    num_shards, index = _int64(num_shards), _int64(index)
    if num_shards < 1:
        raise _op_error("Number of shards must be greater than zero (currently "
                        f"num_shards = {num_shards}).", "ShardDataset")
    if not 0 <= index < num_shards:
        raise _op_error(f"Index must be between 0 and {num_shards - 1} (currently index = "
                        f"{index}).", "ShardDataset")
    card = input_dataset._cardinality
    if card >= 0:
        card = (card - index + num_shards - 1) // num_shards
    if input_dataset._indices is not None:
        parent = input_dataset._indices
        ds = Dataset._over_indices(input_dataset._arrays, lambda: parent()[index::num_shards], card)
    else:
        parent = input_dataset._make_iter
        ds = Dataset(lambda: itertools.islice(parent(), index, None, num_shards), card,
                     input_dataset._spec_fn)
    ds._kind, ds._rngs = "_ShardDataset", input_dataset._rngs
    return ds


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True,
                         name=None) -> "Dataset":
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    spec = choice_dataset.element_spec
    if not isinstance(spec, TensorSpec) or _dims(spec) or spec.dtype != _dt.int64:
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be "
                        f"scalar `tf.int64` tensors but are {spec}.")
    choices = choice_dataset._make_iter
    return Dataset._directed(datasets, lambda _: (int(c) for c in choices()),
                             stop_on_empty_dataset, choice_dataset._rngs)


def _directed(datasets, choices, stop, rngs):
    def it():
        iters = [d._make_iter() for d in datasets]
        live = [True] * len(datasets)
        for index in choices(live):
            if index is None:
                return
            if not 0 <= index < len(datasets):
                from ..._core import errors
                raise errors.InvalidArgumentError(
                    None, None, f"dataset index ({index}) out of bounds [0, "
                    f"{len(datasets)}).")
            if not live[index]:
                continue
            for element in iters[index]:
                yield element
                break
            else:
                if stop:
                    return
                live[index] = False
                if not any(live):
                    return
    cards = [d._cardinality for d in datasets]
    card = INFINITE if all(c == INFINITE for c in cards) else UNKNOWN
    first = datasets[0]
    ds = Dataset(it, card, lambda: first.element_spec)
    ds._kind = "_DirectedInterleaveDataset"
    ds._rngs = tuple(rngs) + tuple(r for d in datasets for r in d._rngs)
    return ds


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None) -> "Dataset":
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    weights_np = None
    if weights is not None:
        weights_np = np.asarray(_to_numpy(weights))
        if weights_np.dtype not in (np.float32, np.float64):
            weights_np = weights_np.astype(np.float32)   # a list of Python numbers
        weights = weights_np.reshape(-1)
        if len(weights) != len(datasets):
            raise ValueError("Invalid `weights`. `weights` should have the same length "
                             f"as `datasets` but got `len(weights)={len(weights)}` vs. "
                             f"`len(datasets)={len(datasets)}`.")
        nonzero = [i for i, w in enumerate(weights) if w != 0]
        if nonzero and len(nonzero) < len(datasets):   # TensorFlow drops those
            datasets = [datasets[i] for i in nonzero]
            weights = weights[nonzero]
        weights_np = weights
    if len(datasets) == 1:
        return datasets[0]
    # TensorFlow's selector: Dataset.random(seed).batch(2), each pair the seed of a
    # stateless_multinomial draw over logits log(weights) (ones without weights); an
    # exhausted dataset's turns are skipped (the directed interleave)
    from ...ops import stateless_random_ops as _sl
    if weights is None:
        logits = np.ones((1, len(datasets)), np.float32)
    else:
        with np.errstate(divide="ignore"):
            logits = np.log(weights_np)[None, :]
    source = Dataset.random(seed, rerandomize_each_iteration)

    def choices(live):
        words = source._make_iter()
        while True:   # stateless_multinomial(logits, 1, seed=[w0, w1]) on NumPy values
            key, counter = _philox.key_counter_from_seed(int(next(words)), int(next(words)))
            yield int(_sl.categorical_rows(key, counter, logits, 1, np.int64)[0, 0])
    return Dataset._directed(datasets, choices, stop_on_empty_dataset, source._rngs)


def rejection_resample(input_dataset, class_func, target_dist, initial_dist=None, seed=None,
                       name=None) -> "Dataset":
    from ..._core import errors
    target = np.asarray(_to_numpy(target_dist)).astype(np.float32)
    tiny = np.finfo(np.float32).tiny

    def mixing(initial):
        """(acceptance probabilities, probability of an original element)."""
        initial = np.asarray(initial, np.float32)
        if initial.shape != target.shape:
            raise errors.static_shape(_op_error(
                f"Incompatible shapes: {list(target.shape)} vs. {list(initial.shape)}",
                "RealDiv"))
        with np.errstate(all="ignore"):
            ratio = target / (initial + np.float32(tiny))
            lo, hi = ratio.min(), ratio.max()
            return (ratio - lo) / (hi - lo), float(lo)

    static = None
    if initial_dist is not None:
        initial = np.asarray(_to_numpy(initial_dist)).astype(np.float32)
        accept, static = mixing(initial)
        with np.errstate(all="ignore"):
            static = float(np.min(target / initial))
    parent = input_dataset._make_iter

    def class_of(element):
        out = _call(class_func, element)
        value = np.asarray(out.numpy() if isinstance(out, _TensorLike) else out)
        dtype = _dt.FROM_NUMPY.get(value.dtype)
        if dtype not in (_dt.int32, _dt.int64, _dt.uint8, _dt.int8):
            raise TypeError("Value passed to parameter 'indices' has DataType "
                            f"{getattr(dtype, 'name', value.dtype)} not in list of "
                            "allowed values: uint8, int8, int32, int64")
        return value

    def with_class(element):
        return (_eager(class_of, element), element)

    def distributions():
        """Per element, (initial estimate, acceptance, probability of the original)."""
        if initial_dist is not None:
            return itertools.repeat((initial, accept, static))
        return estimated()

    def estimated():
        counts = np.full(len(target), 10, np.int64)
        for chunk in _chunks(parent(), 32, False):
            for element in chunk:
                c = int(_eager(class_of, element))
                if not 0 <= c < len(counts):
                    raise errors.InvalidArgumentError(
                        None, None, f"indices[0] = {c} is not in [0, {len(counts)})")
                counts[c] += 1
            dist = (counts / counts.sum()).astype(np.float32)
            a, m = mixing(dist)
            for _ in chunk:
                yield dist, a, m

    rng_box = [_seeded_rng(seed)]
    rng_box.append(rng_box[0].bit_generator.state)
    warned = [0]

    def filtered():
        r = rng_box[0]
        for (dist, a, _), element in zip(distributions(), parent()):
            with np.errstate(all="ignore"):
                rejected = float(np.sum((1 - a) * dist, dtype=np.float32))
            if not rejected < 0.5 and warned[0] < 10:   # TensorFlow's tf.Print
                warned[0] += 1
                import sys
                print("Proportion of examples rejected by sampler is high: "
                      f"{_print_format(rejected)}{_print_format(dist)}"
                      f"{_print_format(a)}", file=sys.stderr)
            c = _eager(class_of, element)
            if np.float32(r.random()) < a[int(c)]:
                yield (c, element)

    card = INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN
    if static == 1:
        ds = Dataset(lambda: (with_class(e) for e in parent()), input_dataset._cardinality)
        ds._kind, ds._rngs = "_MapDataset", input_dataset._rngs
        return ds
    if static == 0:
        ds = Dataset(filtered, card)
        ds._kind, ds._rngs = "_PrefetchDataset", input_dataset._rngs + (rng_box,)
        return ds

    def mixed():
        r = rng_box[0]
        original = (with_class(e) for e in parent())
        accepted = filtered()
        for _, _, m in distributions():
            source = original if r.random() < m else accepted
            for element in source:
                yield element
                break
            else:
                return
    ds = Dataset(mixed, card)
    ds._kind, ds._rngs = "_DirectedInterleaveDataset", input_dataset._rngs + (rng_box,)
    return ds


def _print_format(value):
    """A value as ``tf.Print`` shows it: ``[0.375 0.625]``."""
    flat = np.atleast_1d(np.asarray(value)).ravel()
    return "[" + " ".join(format(float(v), "g") for v in flat) + "]"
