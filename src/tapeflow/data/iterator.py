"""Iterators over a ``tf.data.Dataset``: ``iter(dataset)`` (``OwnedIterator``, trackable
in checkpoints) and ``next(iterator)`` inside a traced function (``NextElement``)."""
import itertools
import json

from .._core.backend import np
from . import composite as _composite
from .structure import _tensors

__all__ = ["OwnedIterator", "NextElement"]

_STATE_MAGIC = b"tapeflow.data iterator state v1\n"


class OwnedIterator:
    """An iterator over a Dataset (``iter(dataset)``; TF's ``OwnedIterator``): ``next`` gives
    the next element as Tensors, or raises StopIteration at the end.

    It is trackable: ``tf.train.Checkpoint(iterator=it)`` saves its position and restoring
    puts a fresh iterator of the same dataset (in another process, say) at that position.
    The state is tapeflow's own, under TensorFlow's key
    ``<path>/.ATTRIBUTES/ITERATOR_STATE``: a scalar string holding the number of elements
    consumed and the generator states of the pipeline's ``shuffle`` steps when the
    iterator started. Restoring replays the pipeline from the start and skips that many
    elements, so it reproduces the elements when the pipeline is deterministic given those
    generators (``map``/``filter``/``from_generator`` functions must not draw random
    numbers or read changing state). See docs/saving.md.
    """

    _moves_iterator = True   # a traced loop over it is stateful (see function/program.py)

    def __init__(self, dataset):
        self._dataset = dataset
        self._start = [(box[0].bit_generator.state, box[1]) for box in dataset._rngs]
        self._elements = dataset._make_iter()
        self._consumed = 0

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._elements)
        self._consumed += 1
        return _tensors(element)

    def get_next(self):
        """The next element (``next(iterator)``).

        Raises:
            tf.errors.OutOfRangeError: at the end of the dataset, as TensorFlow.
        """
        try:
            return next(self)
        except StopIteration:
            from .._core import errors
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    @property
    def element_spec(self):
        """The dataset's ``element_spec``."""
        return self._dataset.element_spec

    # -- inside tf.function -------------------------------------------------------------------
    def _iter_values(self):
        """The remaining elements, each as its flat list of NumPy values: a traced
        ``for x in iterator`` replays over them (consuming them) at every call."""
        for element in self._elements:
            self._consumed += 1
            yield _flat_values(element)

    def _next_raw(self):
        """The next element's NumPy structure.

        Raises:
            tf.errors.OutOfRangeError: at the end, as TensorFlow's ``IteratorGetNext``.
        """
        for element in self._elements:
            self._consumed += 1
            return element
        from .._core import errors
        raise errors.OutOfRangeError(None, None, "End of sequence")

    def _push_back(self, element):
        """Undo a pull (a trace that is rolled back): ``element`` comes next again."""
        self._elements = itertools.chain([element], self._elements)
        self._consumed -= 1

    # -- checkpointing -----------------------------------------------------------------------
    def _trackable_children(self):
        return []

    def _checkpoint_tensors(self):
        """``{attribute: (graph key suffix, dtype name, value)}`` for a checkpoint."""
        state = json.dumps({"consumed": self._consumed, "shuffles": self._start})
        return {"ITERATOR": ("_STATE", "string",
                             np.array(_STATE_MAGIC + state.encode(), dtype=object))}

    def _restore_checkpoint(self, attributes):
        """Restore from ``{attribute: (key, stored dtype name, read)}``: rewind the shuffle
        generators, start the pipeline over and skip the consumed elements.

        Raises:
            tf.errors.InvalidArgumentError: if the state is not tapeflow's (TensorFlow's
                own iterator state, a variant tensor, cannot be read here).
            ValueError: if the dataset's pipeline has another number of shuffles than the
                saved one, or ends before the saved position.
        """
        from .._core import errors
        key, dtype_name, read = attributes["ITERATOR"]
        raw = read() if dtype_name == "string" else None
        raw = raw[()] if raw is not None and np.ndim(raw) == 0 else None
        if not isinstance(raw, bytes) or not raw.startswith(_STATE_MAGIC):
            what = ("a variant tensor: TensorFlow's tf.data-internal encoding"
                    if dtype_name != "string" else "not tapeflow's encoding")
            raise errors.InvalidArgumentError(
                None, None, f"Cannot restore the iterator state {key} (dtype "
                f"{'variant' if dtype_name.startswith('enum') else dtype_name}): it is "
                f"{what}. tapeflow restores only the iterator states it wrote; leave the "
                "iterator out of the tf.train.Checkpoint to restore the other objects.")
        doc = json.loads(raw[len(_STATE_MAGIC):].decode())
        boxes = self._dataset._rngs
        if len(doc["shuffles"]) != len(boxes):
            raise ValueError(
                f"The iterator state {key} was saved from a pipeline with "
                f"{len(doc['shuffles'])} shuffle step(s), but this iterator's dataset has "
                f"{len(boxes)}: restore it into an iterator of the same dataset.")
        for box, (state, first) in zip(boxes, doc["shuffles"]):
            box[0].bit_generator.state = state
            box[1] = first
        start = [(box[0].bit_generator.state, box[1]) for box in boxes]
        elements = self._dataset._make_iter()
        consumed = int(doc["consumed"])
        skipped = sum(1 for _ in itertools.islice(elements, consumed))
        if skipped < consumed:
            raise ValueError(f"The iterator state {key} is at element {consumed}, but this "
                             f"iterator's dataset ends after {skipped} elements.")
        self._start, self._elements, self._consumed = start, elements, consumed


def _flat_values(element):
    from .._core.nest import flatten
    values = []
    for v in flatten(element):
        if _composite.is_composite(v):
            raise NotImplementedError(
                f"A tf.function loop over a dataset of {type(v).__name__} elements (from "
                "ragged_batch, sparse_batch or a map returning one) is not in tapeflow: "
                "iterate it eagerly, or map the elements to dense tensors first "
                "(RaggedTensor.to_tensor, tf.sparse.to_dense).")
        values.append(v if isinstance(v, (np.ndarray, np.generic)) else np.asarray(v))
    return values


class NextElement:
    """``next(iterator)`` inside a traced function, seen as a loop over one element (a
    ``dataset`` step of the program): the trace uses the element pulled while tracing,
    every later call of the function pulls the iterator's next one, as TensorFlow's
    ``IteratorGetNext`` op does."""

    _moves_iterator = True

    def __init__(self, iterator):
        self._iterator = iterator
        self._first = iterator._next_raw()
        self.element_spec = self._first      # the structure the flat values pack into

    def _iter_values(self):
        if self._first is not None:
            element, self._first = self._first, None
        else:
            element = self._iterator._next_raw()
        yield _flat_values(element)
