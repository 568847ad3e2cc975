"""``tf.train.Checkpoint``: save and restore an object graph in TensorFlow's format."""
import os
import warnings
import weakref

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.errors import NotFoundError
from .._core.tensor import Tensor
from .._core.variable import Variable, as_variable, name_scopes
from . import atomic, bundle, state, tracking, workers
from ._proto import ObjectGraph
from .graph import OBJECT_GRAPH_KEY, VALUE, serialize

__all__ = ["Checkpoint", "CheckpointLoadStatus", "InitializationOnlyStatus"]


class Checkpoint:
    """Groups trackable objects to save and restore together (``tf.train.Checkpoint``).

    The file is TensorFlow's: ``<prefix>.index`` and ``<prefix>.data-00000-of-00001``
    holding every variable reachable from the keyword arguments (by attribute names) and
    the object graph. Restoring matches the saved graph against the live objects by those
    names, not by variable names; values for objects that do not exist yet (a layer not
    built, optimizer slots before the first step) are assigned when they are created.
    Every file is written to a temporary, fsynced and renamed: a crash leaves the previous
    checkpoint intact.

    Args:
        root: optional root object: its children are saved at the top of the graph.
        **kwargs: the objects to save, by name (``model=``, ``optimizer=``, ...): tf.Module,
            Keras layers, models and optimizers, Variables, or lists/dicts of them.

    Raises:
        ValueError: if an argument is not trackable.

    >>> import tapeflow as tf, tempfile, os
    >>> v = tf.Variable(1.0)
    >>> ckpt = tf.train.Checkpoint(v=v)
    >>> path = ckpt.save(os.path.join(tempfile.mkdtemp(), "ckpt"))
    >>> os.path.basename(path)
    'ckpt-1'
    >>> _ = v.assign(5.0)
    >>> ckpt.restore(path).assert_consumed() and v.numpy()
    np.float32(1.0)
    """

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, "_root", None)
        object.__setattr__(self, "_kwargs", [])
        object.__setattr__(self, "_save_counter", None)
        if root is not None:
            _check_trackable("root", root)
            object.__setattr__(self, "_root", root)
        for name, value in sorted(kwargs.items()):
            _check_trackable(name, value)
            setattr(self, name, value)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if not name.startswith("_") and tracking.is_trackable(value):
            if name not in self._kwargs:
                self._kwargs.append(name)
        tracking.created(self)

    def _trackable_children(self):
        out = list(tracking.children(self._root)) if self._root is not None else []
        out += [(n, getattr(self, n)) for n in self._kwargs]
        if self._save_counter is not None:
            out.append(("save_counter", self._save_counter))
        return out

    @property
    def save_counter(self) -> Variable:
        """An int64 variable: how many times ``save`` ran (``-N`` in the file names)."""
        self._maybe_create_save_counter()
        return self._save_counter

    def _maybe_create_save_counter(self):
        if self._save_counter is None:
            with _no_scope():
                counter = Variable(np.int64(0), trainable=False, name="save_counter",
                                   dtype=_dt.int64)
            object.__setattr__(self, "_save_counter", counter)
            tracking.created(self)

    def write(self, file_prefix, options=None) -> str:
        """Write the checkpoint at exactly ``file_prefix`` (no counter, no state file).

        Returns:
            ``file_prefix``.

        Raises:
            OSError: if the files cannot be written; nothing is left half-written.
        """
        file_prefix = os.fspath(file_prefix)
        if workers.is_writer():   # under a multi-worker strategy, the chief alone writes
            atomic.remove_stale(os.path.dirname(os.path.abspath(file_prefix)))
            graph, tensors = serialize(self)
            tensors.append((OBJECT_GRAPH_KEY, "string", (), np.array(graph.encode(), object)))
            bundle.write_bundle(file_prefix, tensors)
            for callback in getattr(options, "experimental_write_callbacks", None) or ():
                callback(file_prefix)
        workers.wait()
        return file_prefix

    def save(self, file_prefix, options=None) -> str:
        """Increment ``save_counter``, write ``f"{file_prefix}-{save_counter}"`` and record it
        in the ``checkpoint`` state file of its directory.

        Returns:
            The path written (``file_prefix-N``).

        Raises:
            OSError: if the files cannot be written; the counter is then unchanged and the
                previous checkpoint and state file are intact.
        """
        file_prefix = os.fspath(file_prefix)
        counter = self.save_counter
        counter.assign_add(np.int64(1))
        n = int(counter.numpy())
        path = f"{file_prefix}-{n}"
        try:
            self.write(path, options)
        except BaseException:
            counter.assign_sub(np.int64(1))
            raise
        if workers.is_writer():
            state.update_checkpoint_state(os.path.dirname(file_prefix), path, [path])
        workers.wait()
        return path

    def read(self, save_path, options=None):
        """Restore from ``save_path`` (as written by ``write``); see :meth:`restore`."""
        if save_path is None:
            return InitializationOnlyStatus()
        save_path = os.fspath(save_path)
        reader = bundle.BundleReader(save_path)
        if OBJECT_GRAPH_KEY not in reader.entries:
            raise NotFoundError(None, None, f"The checkpoint {save_path} has no object graph "
                                "(a name-based TF1 checkpoint); read it with "
                                "tf.train.load_checkpoint instead.")
        graph = ObjectGraph.decode(reader.read(OBJECT_GRAPH_KEY)[()])
        session = _Restore(reader, graph, save_path)
        complete = session.resume(0, self)
        session.initial = False
        if not complete and self._root is not None:
            # The root's children sit at the top of the graph: when the root gains one,
            # resume from this checkpoint object.
            tracking.register_pending(self._root, _ResumeAt(session, self), 0)
        return CheckpointLoadStatus(session, self)

    def restore(self, save_path, options=None):
        """Restore the saved values into these objects, now or as they are created.

        Args:
            save_path: a path from ``save``/``tf.train.latest_checkpoint``; None does
                nothing.

        Returns:
            A status with ``assert_consumed()``, ``assert_existing_objects_matched()``,
            ``assert_nontrivial_match()`` and ``expect_partial()``.

        Raises:
            tf.errors.NotFoundError: if there is no checkpoint at ``save_path``.
            tf.errors.DataLossError: if a file is damaged (naming it).
        """
        status = self.read(save_path, options)
        self._maybe_create_save_counter()
        return status


class _ResumeAt:
    """Resumes ``session`` at the checkpoint object whatever object reports the change."""

    def __init__(self, session, checkpoint):
        self.session, self.checkpoint = session, weakref.ref(checkpoint)

    def resume(self, node_id, owner) -> bool:
        checkpoint = self.checkpoint()
        return checkpoint is None or self.session.resume(0, checkpoint)


def _check_trackable(name, value):
    if not tracking.is_trackable(value):
        raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an "
                         f"object derived from `Trackable`), got {value}. If you believe "
                         "this object should be trackable (i.e. it is part of the "
                         "TensorFlow Python API and manages state), please open an issue.")


class _no_scope:  # noqa: N801
    """Make a variable outside any tf.name_scope (``save_counter`` is never prefixed)."""

    def __enter__(self):
        name_scopes.stack.append("")

    def __exit__(self, *exc):
        name_scopes.stack.pop()


# TensorFlow's DataTypeString names, as RestoreV2's messages print them.
_TF_NAMES = {"float32": "float", "float64": "double", "float16": "half"}
# Suffixes of the tensors of saveables whose graph key names the attribute (an iterator's
# ``.ATTRIBUTES/ITERATOR`` is stored at ``.ATTRIBUTES/ITERATOR_STATE``).
_SUFFIXES = ("_STATE",)


class _Restore:
    """One restore: the saved graph walked alongside the live objects, resumable."""

    def __init__(self, reader, graph, path):
        self.reader, self.graph, self.path = reader, graph, path
        self.matched = {}          # node id -> id of the live object (None: a list, dict)
        self.restored = set()      # node ids whose values were assigned
        self.initial = True        # walking from the root in ``read`` (not deferred)
        self.flag = _Flag()
        n = len(graph.nodes)
        self.needs = [bool(node.attributes) for node in graph.nodes]
        changed = True
        while changed:
            changed = False
            for i, node in enumerate(graph.nodes):
                if not self.needs[i] and any(self.needs[c] for c, _ in node.children
                                             if c < n):
                    self.needs[i] = changed = True
        self.names = self._pretty_names()
        weakref.finalize(self, _warn_unrestored, self.matched, self.names, self.graph,
                         self.flag)

    def _pretty_names(self):
        names = {0: "(root)"}
        order = [0]
        for i in order:
            for c, name in self.graph.nodes[i].children:
                if c not in names and c < len(self.graph.nodes):
                    names[c] = f"{names[i]}.{name}"
                    order.append(c)
        return names

    def resume(self, node_id, owner) -> bool:
        """Match ``node_id`` (already bound to ``owner``) again; True once complete."""
        return self._walk(node_id, owner, owner, node_id, set())

    def _walk(self, node_id, obj, owner, owner_id, visiting, in_list=False) -> bool:
        if node_id in visiting or node_id >= len(self.graph.nodes):
            return True
        visiting.add(node_id)
        structural = isinstance(obj, (list, tuple, dict, tracking.Placeholder,
                                      tracking.StructNode))
        # Ids, not references: a pending restore must not keep the objects alive.
        key = None if structural else id(obj)
        prev = self.matched.get(node_id, key)
        if prev != key:
            return True  # this node is bound to another object already
        self.matched[node_id] = key
        node = self.graph.nodes[node_id]
        if node.attributes and node_id not in self.restored:
            self.restored.add(node_id)
            try:
                self._assign(node_id, obj, in_list)
            except BaseException:
                self.restored.discard(node_id)
                raise
        if not structural:
            owner, owner_id = obj, node_id
        live = dict(tracking.children(obj))
        complete = True
        for child_id, name in node.children:
            child = live.get(name)
            if child is None:
                if child_id < len(self.needs) and self.needs[child_id]:
                    complete = False
                continue
            if not self._walk(child_id, child, owner, owner_id, visiting,
                              isinstance(obj, (list, tuple))):
                complete = False
        if not complete and owner is obj:
            tracking.register_pending(owner, self, node_id)
        return complete

    def _assign(self, node_id, obj, in_list=False):
        """Assign the node's saved values to ``obj``.

        A deferred restore into a list element (an optimizer's slot) whose shape differs
        is skipped, as TensorFlow's ``ListWrapper`` drops the restore's ValueError."""
        node = self.graph.nodes[node_id]
        restore = getattr(obj, "_restore_checkpoint", None)
        if restore is not None:
            saved = {}
            for name, _, key in node.attributes:
                stored = self._stored_key(key)
                saved[name] = (stored, self.reader.dtype_name(stored),
                               lambda stored=stored: self.reader.read(stored))
            restore(saved)
            return
        for name, _, key in node.attributes:
            if name != VALUE or as_variable(obj) is None:
                continue
            stored = self.reader.dtype_name(key)
            if stored != obj.dtype.name:
                want = _TF_NAMES.get(obj.dtype.name, obj.dtype.name)
                raise errors.InvalidArgumentError(
                    None, None, f"tensor_name = {key}; expected dtype {want} does not equal "
                    f"original dtype {_TF_NAMES.get(stored, stored)} [Op:RestoreV2]")
            value = self.reader.read(key)
            var_shape = tuple(obj.shape.as_list()) if hasattr(obj.shape, "as_list") else ()
            if tuple(value.shape) != var_shape:
                if in_list and not self.initial:
                    return
                raise ValueError(f"Received incompatible tensor with shape {value.shape} when "
                                 f"attempting to restore variable with shape "
                                 f"{tuple(var_shape)} and name {obj.name}.")
            # RestoreV2's output: a fresh array the variable may own, no further copy.
            obj.assign(Tensor(np.asarray(value).astype(obj.dtype._np, copy=False)))

    def _stored_key(self, key):
        """The tensor of an attribute: at its key, or (an iterator's) a suffixed one."""
        if key in self.reader.entries:
            return key
        for suffix in _SUFFIXES:
            if key + suffix in self.reader.entries:
                return key + suffix
        raise NotFoundError(None, None, f"Key {key} not found in checkpoint [Op:RestoreV2]")

    def unmatched_nodes(self):
        return [i for i, node in enumerate(self.graph.nodes)
                if node.attributes and i not in self.matched]


class _Flag:
    """``expect_partial``, read when the session is collected (without keeping it alive)."""

    partial = False


def node_text(node) -> str:
    """A saved object's ``TrackableObject`` proto in protobuf's text format (as
    TensorFlow's assertion messages print it)."""
    out = []
    for child_id, name in node.children:
        out.append(f"children {{\n  node_id: {child_id}\n  local_name: \"{name}\"\n}}")
    for name, full_name, key in node.attributes:
        fields = [f'  name: "{name}"'] + ([f'  full_name: "{full_name}"'] if full_name
                                          else []) + [f'  checkpoint_key: "{key}"']
        out.append("attributes {\n" + "\n".join(fields) + "\n}")
    if node.has_values is not None:
        out.append("has_checkpoint_values {\n" + ("  value: true\n" if node.has_values
                                                  else "") + "}")
    return "\n".join(out) + "\n"


def _warn_unrestored(matched, names, graph, flag):
    if flag.partial:
        return
    missing = [i for i, node in enumerate(graph.nodes) if node.attributes and i not in matched]
    if not missing:
        return
    lines = ["Detecting that an object or model or tf.train.Checkpoint is being deleted "
             "with unrestored values. See the following logs for the specific values in "
             "question. To silence these warnings, use `status.expect_partial()`. See "
             "https://www.tensorflow.org/api_docs/python/tf/train/Checkpoint#restore for "
             "details about the status object returned by the restore function."]
    lines += [f"Value in checkpoint could not be found in the restored object: {names.get(i)}"
              for i in missing]
    warnings.warn("\n".join(lines), UserWarning, stacklevel=2)


class CheckpointLoadStatus:
    """What a restore matched (``tf.train.Checkpoint.restore``'s return value)."""

    def __init__(self, session, root):
        self._session, self._root = session, root

    def _live_variables(self):
        from .graph import walk
        objects, _, _ = walk(self._root)
        return [o for o in objects if as_variable(o) is not None]

    def assert_existing_objects_matched(self):
        """Raise AssertionError if a variable that exists now got no value from the file.

        Returns:
            The status, for chaining.
        """
        s = self._session
        bound = set(s.matched.values())
        unused = [v for v in self._live_variables() if id(v) not in bound]
        if unused:
            shown = unused[:10]
            raise AssertionError(
                f"Found {len(unused)} Python objects that were not bound to checkpointed "
                "values, likely due to changes in the Python program. Showing "
                f"{len(shown)} of {len(unused)} unmatched objects: {shown}")
        return self

    def assert_consumed(self):
        """Raise AssertionError unless every value in the file was assigned and every
        variable now reachable got one.

        Returns:
            The status, for chaining.
        """
        self.assert_existing_objects_matched()
        s = self._session
        for i in s.unmatched_nodes():
            raise AssertionError(f"Unresolved object in checkpoint {s.names.get(i)}: "
                                 f"{node_text(s.graph.nodes[i])}")
        return self

    def assert_nontrivial_match(self):
        """Raise AssertionError if nothing but the root matched.

        Returns:
            The status, for chaining.
        """
        s = self._session
        if len(s.matched) <= 1:
            raise AssertionError("Nothing except the root object matched a checkpointed "
                                 "value. Typically this means that the checkpoint does not "
                                 "match the Python program.")
        return self

    def expect_partial(self):
        """Silence the warning about values left unrestored.

        Returns:
            The status, for chaining.
        """
        self._session.flag.partial = True
        return self

    def initialize_or_restore(self, session=None):
        """Nothing to do eagerly: values are assigned as objects are matched."""

    def run_restore_ops(self, session=None):
        """Nothing to do eagerly: values are assigned as objects are matched."""


class InitializationOnlyStatus:
    """The status of ``restore(None)``: nothing to restore."""

    def _fail(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def assert_consumed(self):
        self._fail()

    def assert_existing_objects_matched(self):
        self._fail()

    def assert_nontrivial_match(self):
        self._fail()

    def expect_partial(self):
        return self

    def initialize_or_restore(self, session=None):
        """Nothing to do eagerly."""

    def run_restore_ops(self, session=None):
        """Nothing to do eagerly."""
