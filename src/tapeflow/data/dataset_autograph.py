"""tf.data's part of AutoGraph: inside a traced function, ``for x in dataset`` (or an
iterator) becomes a loop step over the pipeline, and ``next(iterator)`` a one-element loop
that pulls at every call. tf.data registers these with the function floor (``function/ir.py``'s
registries) on import, as TensorFlow's ``data/ops/dataset_autograph.py`` registers
``DatasetV2`` with AutoGraph's for-loop registry: the function floor knows no dataset."""
from .._core import nest
from .._core.backend import np
from .._core.tensor import Tensor
from ..function.ir import LoopSource, register_for_loop, register_next
from .dataset import Dataset
from .iterator import NextElement, OwnedIterator, _flat_values

__all__ = []


def _loop_source(iterable):
    """A dataset or an iterator as a loop's source (an iterator's loop is stateful)."""
    return LoopSource(iterable._iter_values, iterable.element_spec,
                      getattr(iterable, "_moves_iterator", False))


def _next_in_trace(iterator, tracer):
    """``next(iterator)`` in a trace: a one-element loop whose replay pulls the iterator's
    next element at every call (see ``NextElement``)."""
    with tracer.suspend():
        source = NextElement(iterator)
    root = tracer
    while root.parent is not None:
        root = root.parent
    structure = source.element_spec      # the element pulled now
    root.pulls.append(lambda: iterator._push_back(structure))
    init = tuple(Tensor(np.zeros_like(v)) for v in _flat_values(structure))
    out = tracer.iterable_loop(LoopSource(source._iter_values, structure, True),
                               lambda element, *_: nest.flatten(element), init, None)
    return nest.pack_sequence_as(structure, list(out)) if nest.is_nested(structure) \
        else out[0]


register_for_loop(Dataset, _loop_source)
register_for_loop(OwnedIterator, _loop_source)
register_next(OwnedIterator, _next_in_trace)
