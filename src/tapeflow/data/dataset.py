"""``tf.data.Dataset``: input pipelines over NumPy arrays, yielding tapeflow Tensors.

Elements are kept as nested structures (tuples, dicts, namedtuples) of NumPy values and
become Tensors only when iterated. ``from_tensor_slices(...).shuffle(...).batch(...)``
gathers each batch with one fancy-index per array rather than stacking element tensors.

``shuffle`` follows TensorFlow's algorithm -- a buffer of ``buffer_size`` elements from
which a uniformly random one is emitted and replaced by the next input -- but draws from
NumPy's PCG64, so the orders differ from TensorFlow's while being reproducible under
``tf.random.set_seed`` or an explicit ``seed``.

``Dataset`` is the list of methods with their docstrings; the bodies live in ``data/ops/``
(``sources``, ``batching``, ``mapping``, ``sampling``, ``io``), the iterators in
``iterator.py``, the element structures and shared argument checks in ``structure.py``.
"""
import itertools

from .._core import dtypes as _dt
from .._core.backend import np
from .._core.tensor import Tensor
from .._core.tensor_spec import TensorSpec
from ..ops.sparse.sparse_tensor import SparseTensor
from . import composite as _composite
from . import structure as _structure
from .iterator import OwnedIterator, _flat_values
from .ops import batching as _batching
from .ops import io as _io
from .ops import mapping as _mapping
from .ops import sampling as _sampling
from .ops import sources as _sources
from .options import Options
from .structure import (
    AUTOTUNE,
    INFINITE,
    UNKNOWN,
    DatasetSpec,
    _from_fn_output,
    _from_user,
    _int64,
    _map,
    _op_error,
    _spec_of,
    _tensors,
)

__all__ = [
    "Dataset", "DatasetSpec", "OwnedIterator", "Options", "TensorSpec", "INFINITE", "UNKNOWN",
    "AUTOTUNE",
]


class Dataset:
    """A sequence of elements with a pipeline of transformations (``tf.data.Dataset``).

    Build one with :meth:`from_tensor_slices`, :meth:`from_tensors`, :meth:`range`,
    :meth:`zip` or :meth:`from_generator`; chain ``shuffle``, ``batch``, ``map``, ...;
    iterate it with ``for``: each element is a Tensor, or a tuple/dict of Tensors packed
    like the input. Iterating again starts over (and reshuffles, by default).

    >>> import tapeflow as tf
    >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4, 5, 6])).batch(2)
    >>> [x.numpy().tolist() for x, _ in ds]
    [[1, 2], [3]]
    """

    _kind = "Dataset"
    _rngs = ()   # the [generator, first state] boxes of the shuffles upstream
    # element_spec was read off an element (a ``map`` output, say), not declared: its
    # dimensions may vary between elements where TensorFlow's traced spec says None.
    _spec_inferred = False
    _options = None

    def __init__(self, make_iter, cardinality, spec_fn=None, indices=None, arrays=None):
        self._make_iter = make_iter
        self._cardinality = cardinality
        self._spec_fn = spec_fn
        # For datasets that are an index order over arrays (slices, shuffled slices ...):
        # ``indices()`` gives one pass's order, ``arrays`` the structure of arrays.
        self._indices = indices
        self._arrays = arrays

    # -- sources -------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None) -> "Dataset":
        """Slice ``tensors`` along their first axis: one element per row.

        Args:
            tensors: an array-like, or a tuple/dict/namedtuple nesting array-likes that share
                their first dimension (a list is read as one tensor, as in TensorFlow).

        Returns:
            A Dataset of ``len`` the shared first dimension.

        Raises:
            ValueError: if a component is a scalar or the first dimensions differ.
        """
        return _sources.from_tensor_slices(tensors, name)

    @staticmethod
    def _over_indices(arrays, indices, n):
        return _sources._over_indices(arrays, indices, n)

    @staticmethod
    def from_tensors(tensors, name=None) -> "Dataset":
        """A dataset of one element: ``tensors`` itself (a tensor or a nested structure)."""
        return _sources.from_tensors(tensors, name)

    @staticmethod
    def range(*args, output_type=_dt.int64, name=None) -> "Dataset":
        """``range(stop)``, ``range(start, stop)`` or ``range(start, stop, step)`` as int64.

        Raises:
            ValueError: for a zero step.
        """
        return _sources.range_dataset(*args, output_type=output_type, name=name)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None) -> "Dataset":
        """Elements from calling ``generator()`` afresh on every iteration.

        Args:
            generator: a callable returning an iterator of elements.
            output_types / output_signature: optional dtypes (a structure of DTypes or
                TensorSpecs) the elements are cast to.
        """
        return _sources.from_generator(generator, output_types, output_shapes, args,
                                       output_signature, name)

    @staticmethod
    def zip(*datasets, name=None) -> "Dataset":
        """Elements of several datasets side by side, as a tuple (or the nesting given).

        Args:
            datasets: datasets, or one tuple/dict of datasets.

        Returns:
            A Dataset as long as the shortest input.
        """
        return _sources.zip_datasets(*datasets, name=name)

    # -- transformations -----------------------------------------------------------------
    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True,
                name=None) -> "Dataset":
        """Randomly reorder the elements through a buffer of ``buffer_size`` elements.

        With ``buffer_size`` at least the dataset's length the order is a uniform random
        permutation. The order differs from TensorFlow's (another generator); see the module
        docstring.

        Args:
            buffer_size: how many elements the buffer holds (>= 1).
            seed: optional op-level seed; with the global seed it fixes the orders.
            reshuffle_each_iteration: draw a new order on every pass (default) or repeat the
                first one.

        Raises:
            tf.errors.InvalidArgumentError: for a buffer size below 1 (other than -2,
                ``tf.data.UNKNOWN_CARDINALITY``), as TensorFlow.
        """
        return _sampling.shuffle(self, buffer_size, seed, reshuffle_each_iteration, name)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None) -> "Dataset":
        """Combine consecutive elements into batches along a new first axis.

        Args:
            batch_size: elements per batch (>= 1).
            drop_remainder: drop a last, smaller batch.

        Returns:
            A Dataset whose components gain a leading axis (``None`` in ``element_spec``
            unless ``drop_remainder``).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1.
            TypeError: for a batch size that is not an integer.
        """
        return _batching.batch(self, batch_size, drop_remainder, num_parallel_calls, deterministic,
                               name)

    def unbatch(self, name=None) -> "Dataset":
        """Split each element along its first axis (the inverse of ``batch``)."""
        return _batching.unbatch(self, name)

    def map(self, map_func, num_parallel_calls=None, deterministic=None,
            name=None) -> "Dataset":
        """Apply ``map_func`` to every element.

        A tuple element is passed as separate arguments (``map_func(x, y)``), anything else
        as one. ``map_func`` works on Tensors with tapeflow ops and returns a tensor or a
        nested structure of them (a list is read as a tuple).

        Raises:
            ValueError: if ``map_func`` is not callable.
        """
        return _mapping.map_dataset(self, map_func, num_parallel_calls, deterministic, name)

    def filter(self, predicate, name=None) -> "Dataset":
        """Keep the elements for which ``predicate`` (a scalar bool) is True.

        Raises:
            ValueError: (on iteration; TensorFlow raises it here, when it traces
                ``predicate``) if ``predicate`` returns anything but a scalar bool.
        """
        return _mapping.filter_dataset(self, predicate, name)

    def repeat(self, count=None, name=None) -> "Dataset":
        """Repeat the dataset ``count`` times (forever for ``None`` or -1)."""
        return _sampling.repeat(self, count, name)

    def take(self, count, name=None) -> "Dataset":
        """The first ``count`` elements (all of them for -1)."""
        return _sampling.take(self, count, name)

    def skip(self, count, name=None) -> "Dataset":
        """All but the first ``count`` elements."""
        return _sampling.skip(self, count, name)

    def concatenate(self, dataset, name=None) -> "Dataset":
        """This dataset's elements followed by ``dataset``'s."""
        return _sampling.concatenate(self, dataset, name)

    def enumerate(self, start=0, name=None) -> "Dataset":
        """Pairs ``(i, element)`` with an int64 counter from ``start``."""
        return _sampling.enumerate_dataset(self, start, name)

    def shard(self, num_shards, index, name=None) -> "Dataset":
        """Every ``num_shards``-th element starting at ``index`` (one worker's share).

        Raises:
            tf.errors.InvalidArgumentError: unless ``0 <= index < num_shards``.
        """
        return _sampling.shard(self, num_shards, index, name)

    # -- structure-changing transformations (TF 2.21's padded_batch, flat_map, ...) ------
    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None) -> "Dataset":
        """Batch elements of varying shapes, padding each component to a common shape.

        Args:
            batch_size: elements per batch (>= 1).
            padded_shapes: per component (a structure like the element's), the shape each
                element is padded to; ``None``/-1 dimensions pad to the longest in the batch.
                Default: the element_spec's shapes (unknown dimensions pad to the batch max).
            padding_values: per component (or one for all) the fill value; default 0 (``b""``
                for strings).
            drop_remainder: drop a last, smaller batch.

        Returns:
            A Dataset whose components have shape ``(batch,) + padded_shape`` (``None`` for
            the batch axis unless ``drop_remainder``, and for padded ``None`` dimensions).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1.
            ValueError: if a padded shape's rank differs from its component's.
            tf.errors.DataLossError: (on iteration) if an element exceeds a fixed padded size.
        """
        return _batching.padded_batch(self, batch_size, padded_shapes, padding_values,
                                      drop_remainder, name)

    def flat_map(self, map_func, name=None) -> "Dataset":
        """Map each element to a dataset (``map_func``) and chain those datasets' elements.

        A tuple element is passed as separate arguments. Cardinality is unknown (-2).

        Raises:
            TypeError: (on iteration) if ``map_func`` does not return a Dataset.
        """
        return _mapping.flat_map(self, map_func, name)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None) -> "Dataset":
        """Map each element to a dataset and interleave ``cycle_length`` of them at a time,
        ``block_length`` consecutive elements from each, in TensorFlow's order (an exhausted
        dataset's slot takes the next input element when its turn comes again).

        Args:
            map_func: element -> Dataset.
            cycle_length: datasets open at once (default/AUTOTUNE: the number of CPU cores,
                as TensorFlow).
            block_length: consecutive elements taken from each (default 1).
            num_parallel_calls, deterministic: accepted; elements come in the deterministic
                order.

        Raises:
            tf.errors.InvalidArgumentError: for a cycle or block length below 1.
        """
        return _mapping.interleave(self, map_func, cycle_length, block_length, num_parallel_calls,
                                   deterministic, name)

    def window(self, size, shift=None, stride=1, drop_remainder=False,
               name=None) -> "Dataset":
        """Group elements into windows, each a dataset (or a structure of per-component
        datasets, like the element) of ``size`` elements ``stride`` apart; a window starts
        every ``shift`` elements (default ``size``). Use ``flat_map``/``batch`` on them.

        Raises:
            tf.errors.InvalidArgumentError: for a size, shift or stride below 1.
        """
        return _batching.window(self, size, shift, stride, drop_remainder, name)

    def scan(self, initial_state, scan_func, name=None) -> "Dataset":
        """A stateful map: ``new_state, output = scan_func(state, element)`` from
        ``initial_state``; the outputs are the elements.

        Raises:
            TypeError: (on iteration; TensorFlow raises it when it traces ``scan_func``) if
                the new state's dtypes differ from the initial state's.
        """
        return _mapping.scan(self, initial_state, scan_func, name)

    def take_while(self, predicate, name=None) -> "Dataset":
        """The elements up to (not including) the first for which ``predicate`` is False.

        Raises:
            ValueError: (on iteration; TensorFlow raises it here) if ``predicate`` returns
                anything but a scalar bool.
        """
        return _mapping.take_while(self, predicate, name)

    def unique(self, name=None) -> "Dataset":
        """The elements with repeats removed (first occurrences, in order).

        Raises:
            TypeError: unless the elements are int32, int64 or string tensors.
            tf.errors.InvalidArgumentError: for elements of more than one component.
        """
        return _mapping.unique(self, name)

    def group_by_window(self, key_func, reduce_func, window_size=None,
                        window_size_func=None, name=None) -> "Dataset":
        """Group elements by ``key_func`` (an int64 scalar) into windows of ``window_size``
        (or ``window_size_func(key)``) elements; each full window, then each partial one at
        the end (in key order, as TensorFlow), goes through ``reduce_func(key, window)``,
        whose dataset's elements are the output.

        Raises:
            ValueError: unless exactly one of ``window_size``, ``window_size_func`` is given.
        """
        return _batching.group_by_window(self, key_func, reduce_func, window_size, window_size_func,
                                         name)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None,
                                  padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False,
                                  name=None) -> "Dataset":
        """Batch elements of similar length together: ``element_length_func(element)`` picks
        the bucket (``bucket_boundaries`` split the lengths), each bucket is padded-batched
        with its ``bucket_batch_sizes`` entry (a ``group_by_window``).

        Raises:
            ValueError: if ``len(bucket_batch_sizes) != len(bucket_boundaries) + 1``.
        """
        return _batching.bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                                   bucket_batch_sizes, padded_shapes,
                                                   padding_values, pad_to_bucket_boundary,
                                                   no_padding, drop_remainder, name)

    @staticmethod
    def counter(start=0, step=1, dtype=_dt.int64, name=None) -> "Dataset":
        """The infinite sequence ``start, start + step, ...`` as scalars of ``dtype``."""
        return _sources.counter(start, step, dtype, name)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True,
                             name=None) -> "Dataset":
        """Element ``i`` comes from ``datasets[choice_i]`` (``choice_dataset``'s int64s);
        an exhausted dataset ends the result (``stop_on_empty_dataset``) or is skipped.

        Raises:
            ValueError: for no datasets.
            TypeError: unless ``choice_dataset``'s elements are int64 scalars.
        """
        return _sampling.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset, name)

    @staticmethod
    def _directed(datasets, choices, stop, rngs):
        return _sampling._directed(datasets, choices, stop, rngs)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None) -> "Dataset":
        """Each element from a randomly chosen dataset, dataset ``i`` with probability
        ``weights[i]`` (default: uniform) among those not exhausted. The choices are
        reproducible under ``seed``/``tf.random.set_seed`` but differ from TensorFlow's
        (another generator). One dataset is returned as it is (as TensorFlow).

        Raises:
            ValueError: for no datasets, or weights of another length.
        """
        return _sampling.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                              rerandomize_each_iteration)

    def rebatch(self, batch_size, drop_remainder=False, name=None) -> "Dataset":
        """Re-split a batched dataset into batches of ``batch_size`` (its unbatched elements
        batched again).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1.
        """
        return _batching.rebatch(self, batch_size, drop_remainder, name)

    # -- errors, files, resampling (TF 2.21's ignore_errors, save/load, snapshot ...) -----
    def ignore_errors(self, log_warning=False, name=None) -> "Dataset":
        """The elements that come without an error: an element whose computation raised a
        ``tf.errors.OpError`` (``InvalidArgumentError`` from ``tf.debugging.check_numerics``
        in a ``map``, say) is dropped and the pipeline goes on with the next one, as
        TensorFlow's ``IgnoreErrorsDataset`` (every error but ``CancelledError``). Python
        exceptions that are not ``OpError``s (a bug in the function: TensorFlow raises those
        when it traces it, before any element) are not swallowed.

        Args:
            log_warning: write ``Error raised with error message <message>`` to stderr for
                each dropped element (TensorFlow's C++ log line, as a ``W`` line).

        Returns:
            A Dataset of the same ``element_spec``; its cardinality is unknown (-2), as
            TensorFlow's (an infinite input's too).
        """
        return _io.ignore_errors(self, log_warning, name)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Write the dataset's elements to the directory ``path`` (``tf.data.Dataset.save``)
        in tapeflow's own format (NumPy ``.npz`` chunks, the element_spec as JSON; not
        TensorFlow's snapshot files): :meth:`load` reads it back with its element_spec and
        order. An existing directory is replaced. The directory is written under a temporary
        name and renamed when complete, so an interrupted save leaves nothing that loads.

        Args:
            path: a directory name (str or path-like).
            compression: ``"GZIP"`` (each chunk through ``gzip``) or None.
            shard_func: element -> int64 scalar, the shard (subdirectory) it goes to; the
                default reader interleaves the shards (see :meth:`load`).
            checkpoint_args: the arguments of a ``tf.train.CheckpointManager`` (checked as
                TensorFlow does; tapeflow restarts an interrupted save from the beginning).

        Raises:
            TypeError: for a path that is not a string, or bad ``checkpoint_args``.
            tf.errors.InvalidArgumentError: if ``shard_func`` does not return an int64
                scalar.
        """
        return _io.save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None,
             wait=False) -> "Dataset":
        """The dataset :meth:`save` wrote at ``path`` (``tf.data.Dataset.load``).

        Args:
            path: the directory.
            element_spec: optional; by default the saved one.
            compression: the compression it was saved with (None or ``"GZIP"``).
            reader_func: a function from the dataset of shard datasets to the dataset read;
                by default ``interleave(lambda x: x, cycle_length=<CPU cores>)`` as
                TensorFlow's (one shard: the saved order).

        Returns:
            A Dataset of the saved cardinality.

        Raises:
            tf.errors.NotFoundError: if nothing complete is saved at ``path``.
            tf.errors.InvalidArgumentError: (on iteration) if ``element_spec``'s dtypes
                differ from the saved ones.
            tf.errors.DataLossError: (on iteration) if ``compression`` differs from the
                saved one.
        """
        return _io.load(path, element_spec, compression, reader_func, wait)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None,
                 name=None) -> "Dataset":
        """Persist the elements under ``path`` (``tf.data.Dataset.snapshot``): the first
        complete pass computes them and writes them; later passes (in this process or
        another) read them. Snapshots are kept per pipeline, in ``path/<fingerprint>`` (a
        :meth:`save` directory): the fingerprint hashes the element_spec and the pipeline's
        functions (their code and constants), captured values, arrays and parameters, as
        TensorFlow hashes its dataset graph. A pass left before its end writes nothing.

        Args:
            compression: ``"GZIP"``, or ``"AUTO"``/None (uncompressed here).
            reader_func, shard_func: as :meth:`load` and :meth:`save`.
        """
        return _io.snapshot(self, path, compression, reader_func, shard_func, name)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=_dt.int64,
                     name=None) -> "Dataset":
        """Batch elements whose shapes vary into ``tf.RaggedTensor``s: a component whose
        ``element_spec`` shape has unknown (``None``) dimensions becomes a RaggedTensor of
        ragged rank one more than its last unknown axis (``[batch, None, ...]``); a fully
        known one is batched densely (TensorFlow's ``_DenseToRaggedDataset`` + ``batch``).

        A ``map``'s element_spec is read off its first element in tapeflow (see the
        docs): there each component's first axis is taken as the unknown one.

        Args:
            batch_size: elements per batch (>= 1).
            drop_remainder: drop a last, smaller batch.
            row_splits_dtype: ``tf.int64`` (default) or ``tf.int32`` for the row splits.

        Returns:
            A Dataset whose ``element_spec`` has ``RaggedTensorSpec``s; elements are
            ``tf.RaggedTensor``s (iterate it eagerly: a ``tf.function`` loop over ragged
            elements raises NotImplementedError).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1.
            NotImplementedError: for components that are already ragged or sparse.
        """
        return _batching.ragged_batch(self, batch_size, drop_remainder, row_splits_dtype, name)

    def sparse_batch(self, batch_size, row_shape, name=None) -> "Dataset":
        """Batch dense elements of varying shapes into ``tf.sparse.SparseTensor``s of dense
        shape ``[batch] + row_shape``, holding every entry of every element
        (``DenseToSparseBatchDataset``; a ``None`` in ``row_shape`` is the batch's largest).

        Returns:
            A Dataset of ``SparseTensorSpec([None] + row_shape, dtype)`` elements (iterate
            it eagerly: a ``tf.function`` loop over sparse elements raises
            NotImplementedError).

        Raises:
            tf.errors.InvalidArgumentError: for a batch size below 1; (on iteration) for
                an element whose rank differs from ``len(row_shape)``.
            tf.errors.DataLossError: (on iteration) for an element larger than
                ``row_shape``.
            TypeError: unless the elements have a single component.
            ValueError: for a negative dimension in ``row_shape``.
        """
        return _batching.sparse_batch(self, batch_size, row_shape, name)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None) -> "Dataset":
        """Resample the elements so that their classes (``class_func(element)``, an int32
        or int64 scalar in ``[0, num_classes)``) follow ``target_dist``, with TensorFlow's
        algorithm: with ``initial_dist`` given (else estimated as the data streams, from
        batches of 32 class values and counts starting at 10 per class), ratios
        ``r_i = t_i / p_i``; each output is an input element as it comes with probability
        ``m = min r`` or, otherwise, the next element accepted by rejection sampling with
        acceptance ``a_i = (r_i - m) / (max r - m)``. ``m == 1`` (target equals initial)
        keeps every element; ``m == 0`` only rejection-samples.

        Returns:
            A Dataset of pairs ``(class, element)``; cardinality unknown (-2) unless
            ``m == 1`` (the input's), infinite for an infinite input. The draws come from
            NumPy's generator (reproducible under ``seed``, not TensorFlow's numbers).

        Raises:
            TypeError: (on iteration; TensorFlow raises it at the call) if ``class_func``
                returns a float.
            tf.errors.InvalidArgumentError: if ``target_dist`` and ``initial_dist`` differ in
                length.
        """
        return _sampling.rejection_resample(self, class_func, target_dist, initial_dist, seed, name)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None) -> "Dataset":
        """An infinite dataset of random int64 scalars (``tf.data.Dataset.random``).

        TensorFlow's values under ``seed``/``tf.random.set_seed``: the 32-bit words of its
        Philox stream keyed by the op's seeds, one per element (so in ``[0, 2**32)``). With
        ``rerandomize_each_iteration`` each pass draws new values (TensorFlow's seeds per
        iterator); otherwise every pass repeats the first one's.
        """
        return _sources.random_dataset(seed, rerandomize_each_iteration, name)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None) -> "Dataset":
        """The file names matching ``file_pattern`` (a glob, or a list of them), as string
        scalars in sorted order, shuffled unless ``shuffle=False`` (``seed`` as
        :meth:`shuffle`; the order differs from TensorFlow's).

        Raises:
            tf.errors.InvalidArgumentError: if no file matches, with TensorFlow's text.
        """
        return _sources.list_files(file_pattern, shuffle, seed, name)

    def options(self):
        """The ``tf.data.Options`` set by ``with_options`` upstream (a default one if none)."""
        return self._options if self._options is not None else Options()

    def with_options(self, options, name=None) -> "Dataset":
        """The same elements with ``options`` (a ``tf.data.Options``) attached; tapeflow
        reads none of them (it runs one deterministic pipeline).

        Raises:
            TypeError: if ``options`` is not a ``tf.data.Options``.
        """
        if not isinstance(options, Options):
            raise TypeError(f"Invalid `options`. `options` should be of type "
                            f"`tf.data.Options`, but got {type(options)}.")
        ds = Dataset(self._make_iter, self._cardinality, self._spec_fn, self._indices,
                     self._arrays)
        ds._kind, ds._rngs, ds._options = "_OptionsDataset", self._rngs, options
        ds._spec_inferred = self._spec_inferred
        return ds

    def reduce(self, initial_state, reduce_func, name=None):
        """Fold the elements: ``state = reduce_func(state, element)`` from ``initial_state``.

        Returns:
            The final state (Tensors).
        """
        state = _tensors(_from_user(initial_state))
        for element in self:
            state = reduce_func(state, element)
        return _tensors(_from_fn_output(state))

    def get_single_element(self, name=None):
        """The only element of a one-element dataset.

        Raises:
            tf.errors.InvalidArgumentError: if the dataset has no element or more than one.
        """
        from .._core import errors
        items = list(itertools.islice(self._make_iter(), 2))
        if len(items) != 1:
            raise errors.InvalidArgumentError(
                None, None, "Dataset was empty." if not items
                else "Dataset had more than one element.")
        return _tensors(items[0])

    def prefetch(self, buffer_size=None, name=None) -> "Dataset":
        """The same dataset: tapeflow computes eagerly, there is nothing to overlap.

        Raises:
            tf.errors.InvalidArgumentError: for a buffer size below -1 (-1 is AUTOTUNE).
        """
        if buffer_size is not None and _int64(buffer_size) < -1:
            raise _op_error("buffer_size must be >= 0 or set buffer_size to be -1 for "
                            "auto-tuning", "PrefetchDataset")
        return self

    def cache(self, filename="", name=None) -> "Dataset":
        """The same dataset: elements are already in memory, nothing to cache."""
        return self

    def apply(self, transformation_func) -> "Dataset":
        """``transformation_func(self)``."""
        return transformation_func(self)

    def as_numpy_iterator(self):
        """Iterate elements as NumPy values (scalars as NumPy scalars)."""
        return (_map(_numpy_leaf, e) for e in self._make_iter())

    def __iter__(self):
        return OwnedIterator(self)

    def _iter_values(self):
        """Each element as the flat list of its NumPy values (tf.nest order): what a traced
        ``for x in dataset`` loop of a ``tf.function`` program consumes."""
        for element in self._make_iter():
            yield _flat_values(element)

    def cardinality(self) -> Tensor:
        """The number of elements as an int64 Tensor; -1 if infinite, -2 if unknown."""
        return Tensor(np.int64(self._cardinality))

    def __len__(self):
        if self._cardinality == INFINITE:
            raise TypeError("The dataset is infinite.")
        if self._cardinality == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __bool__(self):
        return True

    @property
    def element_spec(self):
        """The TensorSpec (or nesting of them) of one element."""
        if self._spec_fn is not None:
            return self._spec_fn()
        # read off the first element; the shuffles upstream must not count it as an epoch
        saved = [(box[0].bit_generator.state, box[1]) for box in self._rngs]
        try:
            for element in self._make_iter():
                return _spec_of(element)
        finally:
            for box, (state, first) in zip(self._rngs, saved):
                box[0].bit_generator.state = state
                box[1] = first
        raise ValueError("element_spec of an empty dataset of unknown structure")

    def __repr__(self):
        return f"<{self._kind} element_spec={self.element_spec!r}>"


# The modules under this one build and recognise Datasets but cannot import this module
# (it imports them): each gets the class here, once.
for _module in (_structure, _sources, _batching, _mapping, _sampling, _io):
    _module.Dataset = Dataset
del _module


def _numpy_leaf(v):
    """An element's leaf as ``as_numpy_iterator`` gives it (TensorFlow's forms: a scalar as
    a NumPy scalar, a RaggedTensor as its ``numpy()`` rows, a SparseTensor densified)."""
    if isinstance(v, np.ndarray) and v.ndim == 0:
        return v[()]
    if _composite.is_composite(v):
        if isinstance(v, SparseTensor):
            out = np.zeros(v.dense_shape.numpy(), v.values.numpy().dtype)
            if out.dtype == object:
                out[...] = b""
            out[tuple(v.indices.numpy().T)] = v.values.numpy()
            return out
        return v.numpy()
    return v

