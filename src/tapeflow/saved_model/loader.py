"""``tf.saved_model.load``: a TF-written SavedModel as live tapeflow objects.

Stages: parse ``saved_model.pb`` (``_protobuf``), check that every op the saved functions use
has a kernel (NotImplementedError listing the missing ones), revive the object graph
(``revive.py``), restore the variables from ``variables/`` with the checkpoint reader, and
bind each saved trace to its FunctionDef, imported on its first call (``imports.py``).
"""
import os

from .. import _protobuf as pb
from .._core import errors
from .._core.tensor import constant
from .._core.variable import Variable
from ..checkpoint.reader import CheckpointReader
from ..ops import creation_ops
from . import imports, kernels, revive

__all__ = ["load", "contains_saved_model"]

_LIST_IDS = {"trackable_list_wrapper": list, "trackable_tuple_wrapper": tuple}


def contains_saved_model(export_dir) -> bool:
    """Whether ``export_dir`` holds a SavedModel (``tf.saved_model.contains_saved_model``)."""
    path = os.fspath(export_dir)
    return os.path.isfile(os.path.join(path, "saved_model.pb")) or os.path.isfile(
        os.path.join(path, "saved_model.pbtxt"))


def load(export_dir, tags=None, options=None):
    """Load a SavedModel written by TensorFlow (or tapeflow) (``tf.saved_model.load``).

    Args:
        export_dir: the SavedModel directory (str or path-like).
        tags: None, or the tags of the SavedModel's one MetaGraph (``"serve"``).
        options: a ``tf.saved_model.LoadOptions``.

    Returns:
        The root object: its children as attributes (variables, sub-objects, restored
        ``tf.function``s, lists and dicts), ``signatures`` (a read-only mapping of
        ConcreteFunctions), callable if it was saved with a ``__call__``.

    Raises:
        OSError: no ``saved_model.pb`` ("SavedModel file does not exist at: ..."), or it does
            not parse ("Cannot parse file ...").
        ValueError: ``tags`` other than the MetaGraph's.
        FileNotFoundError: no ``variables/`` checkpoint.
        tf.errors.OpError: a missing or damaged variables data file (DataLossError, naming
            the file).
        AssertionError: a saved variable has no value in the checkpoint.
        NotImplementedError: a saved function uses TF ops tapeflow has no kernel for (all
            are listed, with their functions).

    Example (a directory TF wrote with ``tf.saved_model.save(module, path)``)::

        loaded = tf.saved_model.load(path)
        list(loaded.signatures.keys())          # ['serving_default']
        y = loaded(tf.ones((2, 3)))             # the saved __call__, run by tapeflow
        loaded.signatures["serving_default"](x=tf.ones((2, 3)))["output_0"]
    """
    path = os.fspath(export_dir)
    pb_path = os.path.join(path, "saved_model.pb")
    if not os.path.isfile(pb_path):
        raise OSError(f"SavedModel file does not exist at: "
                      f"{path}{os.sep}{{saved_model.pbtxt|saved_model.pb}}")
    with open(pb_path, "rb") as f:
        data = f.read()
    try:
        saved = pb.decode("tensorflow.SavedModel", data)
    except pb.DecodeError as e:
        raise OSError(f"Cannot parse file {pb_path.encode()!r}: {e}") from None
    if not saved.meta_graphs:
        raise OSError(f"Cannot parse file {pb_path.encode()!r}: it holds no MetaGraph")
    meta = saved.meta_graphs[0]
    if tags is not None:
        wanted = [tags] if isinstance(tags, str) else list(tags)
        if sorted(wanted) != sorted(meta.meta_info_def.tags):
            raise ValueError(
                f"Got an incompatible argument to `tags`: {tags}. The SavedModel at {path} "
                f"has one MetaGraph with tags {list(meta.meta_info_def.tags)}. You may omit "
                "the argument, pass 'None', or pass matching tags.")
    return _Loader(path, meta, options).root


class _Loader:
    def __init__(self, path, meta_graph, options):
        self.path = path
        self.meta = meta_graph
        self.options = options
        graph = meta_graph.graph_def
        lib = graph.library
        self.library = imports.Library({f.signature.name: f for f in lib.function},
                                       {g.registered_op_type: g.gradient_func
                                        for g in lib.registered_gradients}, path)
        self.graph_nodes = {n.name: n for n in graph.node}
        self.og = meta_graph.object_graph_def
        self.nodes = self.og.nodes
        self._check_ops()
        self.objects = {}
        self._variables = {}
        for i, node in enumerate(self.nodes):
            if node.which_oneof("kind") == "variable":
                self._variables[i] = self._make_variable(node.variable)
        self._restore_variables()
        self._bind_gradients()
        self.concrete = {}
        self.root = self.revive(0)
        if isinstance(self.root, revive.UserObject):
            if not hasattr(self.root, "signatures"):
                self.root.signatures = revive.SignatureMap({})
            info = meta_graph.meta_info_def
            self.root.tensorflow_version = info.tensorflow_version
            self.root.tensorflow_git_version = info.tensorflow_git_version

    # ---------------------------------------------------------------- op coverage
    def _check_ops(self):
        missing = imports.missing_ops(self.library.functions, list(self.og.concrete_functions)
                                      + list(self.library.gradients.values()))
        if missing:
            listing = "; ".join(f"{op} (in {', '.join(sorted(set(fns))[:3])})"
                                for op, fns in sorted(missing.items()))
            raise NotImplementedError(
                f"Loading the SavedModel at {self.path}: tapeflow has no kernel for the TF "
                f"op(s) {', '.join(sorted(missing))}: {listing}")

    def _bind_gradients(self):
        """What each registered gradient function captures, from its ``concrete_functions``
        entry (TF's layout): a variable node (its resource) or a ``captured_tensor`` node
        (a tensor of the forward function, ``Exp:0``); and which IdentityN inputs get a
        gradient (its ``output_signature``: None for the results)."""
        for gname in set(self.library.gradients.values()):
            saved = self.og.concrete_functions.get(gname)
            if saved is None:
                continue
            binds = []
            for i in saved.bound_inputs:
                node = self.nodes[i]
                kind = node.which_oneof("kind")
                if kind == "variable":
                    binds.append(("variable", self._variables[i]))
                elif kind == "captured_tensor":
                    ct = node.captured_tensor
                    binds.append(("tensor", ct.concrete_function, ct.name))
                else:
                    raise NotImplementedError(
                        f"{self.path}: the gradient function {gname} captures a {kind} "
                        f"object (node {i}): tapeflow binds variables and tensors only")
            self.library.captures[gname] = binds
            outs = saved.output_signature
            if outs.which_oneof("kind") == "list_value":
                self.library.grad_outputs[gname] = [
                    v.which_oneof("kind") != "none_value" for v in outs.list_value.values]

    # -------------------------------------------------------------------- variables
    def _make_variable(self, sv):
        dtype = kernels.dtype_of(sv.dtype)
        shape = [max(d.size, 0) for d in sv.shape.dim]
        v = Variable(creation_ops.zeros(shape, dtype), trainable=sv.trainable,
                     name=sv.name or None, dtype=dtype)
        return v

    def _restore_variables(self):
        opts = self.options
        if opts is not None and getattr(opts, "experimental_skip_checkpoint", False):
            return
        if not self._variables:
            return
        prefix = os.path.join(self.path, "variables", "variables")
        if not os.path.isfile(prefix + ".index"):
            raise FileNotFoundError(
                f"Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                f"files for {prefix}")
        try:
            reader = CheckpointReader(prefix)
        except errors.NotFoundError as e:
            raise FileNotFoundError(str(e)) from None
        graph = pb.decode("tensorflow.TrackableObjectGraph",
                          reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
        allow_partial = opts is not None and getattr(opts, "allow_partial_checkpoint", False)
        for i, var in self._variables.items():
            key = None
            if i < len(graph.nodes):
                for attr in graph.nodes[i].attributes:
                    if attr.name == "VARIABLE_VALUE":
                        key = attr.checkpoint_key
            if key is None or not reader.has_tensor(key):
                if allow_partial:
                    continue
                raise AssertionError(
                    f"The SavedModel at {self.path} has no value for variable "
                    f"{var.name!r} (object graph node {i}) in {prefix}")
            var.assign(reader.get_tensor(key))

    # ---------------------------------------------------------------------- objects
    def revive(self, i):
        if i in self.objects:
            return self.objects[i]
        node = self.nodes[i]
        kind = node.which_oneof("kind")
        children = {c.local_name: c.node_id for c in node.children}
        if kind == "variable":
            obj = self._variables[i]
        elif kind == "function":
            obj = self._function(node.function)
        elif kind == "bare_concrete_function":
            bare = node.bare_concrete_function
            obj = self._concrete(bare.concrete_function_name, list(bare.argument_keywords),
                                 bare.allowed_positional_arguments)
        elif kind == "constant":
            obj = self._constant(node.constant.operation)
        elif kind == "asset":
            files = self.meta.asset_file_def
            idx = node.asset.asset_file_def_index
            name = files[idx].filename if idx < len(files) else ""
            obj = os.path.join(self.path, "assets", name)
        elif kind == "user_object":
            ident = node.user_object.identifier
            if ident in _LIST_IDS:
                items = [self.revive(children[k]) for k in sorted(children, key=_index_key)
                         if k.isdigit()]
                obj = _LIST_IDS[ident](items)
            elif ident == "trackable_dict_wrapper":
                obj = {k: self.revive(n) for k, n in children.items()}
            elif ident == "signature_map":
                obj = revive.SignatureMap({k: self.revive(n) for k, n in children.items()})
            else:
                obj = self._user_object(i, children)
            self.objects[i] = obj
            return obj
        else:
            obj = None  # resources, captured tensors: not revived
        self.objects[i] = obj
        return obj

    def _user_object(self, i, children):
        if "__call__" in children:
            call = self.revive(children["__call__"])
            obj = revive.callable_user_object(call)
        else:
            obj = revive.UserObject()
        self.objects[i] = obj
        for name, child in children.items():
            value = self.revive(child)
            try:
                setattr(obj, name, value)
            except AttributeError:
                pass
        return obj

    def _constant(self, op_name):
        node = self.graph_nodes.get(op_name)
        if node is None:
            raise ValueError(f"{self.path}: a saved constant names node {op_name!r}, which "
                             "the graph does not have")
        return constant(imports.tensor_value(node.attr["value"].tensor))

    def _concrete(self, name, keywords=None, positional=None):
        key = (name, keywords is not None)
        if key in self.concrete:
            return self.concrete[key]
        saved = self.og.concrete_functions.get(name)
        if saved is None:
            raise ValueError(f"{self.path}: no saved concrete function {name!r}")
        captures = [self.revive(i) for i in saved.bound_inputs]
        inputs = revive.structure(saved.canonicalized_input_signature)
        if inputs is None:
            inputs = ((), {})
        outputs = revive.structure(saved.output_signature)
        cf = revive.RestoredConcreteFunction(name, self.library, captures, inputs, outputs,
                                             keywords if keywords else None, positional)
        if keywords is not None and not keywords:
            cf._keywords = None
        self.concrete[key] = cf
        return cf

    def _function(self, saved):
        cfs = [self._concrete(n) for n in saved.concrete_functions]
        spec = saved.function_spec
        argspec = revive.structure(spec.fullargspec) if spec.has("fullargspec") else None
        input_sig = revive.structure(spec.input_signature) if spec.has(
            "input_signature") else None
        return revive.RestoredFunction(cfs, argspec, spec.is_method, input_sig)


def _index_key(k):
    return int(k) if k.isdigit() else -1
