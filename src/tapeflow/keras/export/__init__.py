"""``keras.export``: a Keras model as a serving SavedModel (Keras 3's ``ExportArchive``).

``Model.export(path)`` and ``ExportArchive`` build a ``tf.Module`` root holding the tracked
models, their variables as ``variables`` / ``trainable_variables`` /
``non_trainable_variables`` lists, and one ``tf.function`` per endpoint, then write it with
``tf.saved_model.save``. Every endpoint is a signature too, and the first one is also
``serving_default`` (TF Serving needs it), as Keras 3.15 does with the TensorFlow backend.
"""
from ... import _core  # noqa: F401  (keeps the package's floor explicit)

__all__ = ["ExportArchive", "export_saved_model"]


def _tf():
    import tapeflow

    return tapeflow


class ExportArchive:
    """Collects models, endpoints and variable collections, then writes a SavedModel
    (``keras.export.ExportArchive``).

    Example::

        archive = ExportArchive()
        archive.track(model)
        archive.add_endpoint("serve", model.call,
                             input_signature=[tf.TensorSpec((None, 8), tf.float32)])
        archive.write_out("path")
    """

    def __init__(self):
        self._root = _root_type()()
        self._endpoint_names = []
        self._tracked = []
        self._root._tracked = []
        self._root.variables = []
        self._root.trainable_variables = []
        self._root.non_trainable_variables = []

    @property
    def variables(self):
        return self._root.variables

    @property
    def trainable_variables(self):
        return self._root.trainable_variables

    @property
    def non_trainable_variables(self):
        return self._root.non_trainable_variables

    def track(self, resource):
        """Tracks a Keras layer or model so its variables are saved with the archive.

        Args:
            resource: a built ``keras.layers.Layer`` (or ``Model``).

        Raises:
            ValueError: an unbuilt layer (its variables do not exist yet).
            TypeError: anything that is not a Keras layer.
        """
        from ..layers.layer import Layer

        if not isinstance(resource, Layer):
            raise TypeError("Invalid resource type. Expected a Keras `Layer` or `Model` "
                            f"instance. Received instead: {resource} (of type "
                            f"{type(resource)})")
        if not resource.built:
            raise ValueError("The layer provided has not yet been built. It must be built "
                             "before export.")
        self._tracked.append(resource)
        self._root._tracked.append(resource)
        known = {id(v) for v in self._root.variables}
        for v in resource.variables:
            if id(v) in known:
                continue
            known.add(id(v))
            self._root.variables.append(v)
            (self._root.trainable_variables if v.trainable else
             self._root.non_trainable_variables).append(v)

    def add_endpoint(self, name, fn=None, input_signature=None, **kwargs):
        """Registers ``fn`` as the endpoint ``name`` (an attribute of the saved root and a
        signature of the SavedModel).

        Args:
            name: the endpoint's name (str).
            fn: a callable; a ``tf.function`` already traced or with an input signature
                needs no ``input_signature``.
            input_signature: a list of ``tf.TensorSpec`` (one per positional argument).

        Returns:
            The ``tf.function`` registered.

        Raises:
            ValueError: a name already used, or no input signature to trace ``fn`` with.
        """
        tf = _tf()
        from ...function.polymorphic import Function

        if name in self._endpoint_names:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        if fn is None:
            raise ValueError("`fn` must be provided.")
        if input_signature is not None:
            sig = [_spec(s) for s in input_signature]
            if isinstance(fn, Function):
                fn = fn.python_function
            decorated = tf.function(fn, input_signature=sig, autograph=False)
        elif isinstance(fn, Function) and (fn._input_signature is not None or
                                           _traces(fn)):
            decorated = fn
        else:
            raise ValueError("If you use `add_endpoint` with a function that is not a "
                             "`tf.function` with an input signature, you must pass the "
                             "`input_signature` argument.")
        setattr(self._root, name, decorated)
        self._endpoint_names.append(name)
        return decorated

    def add_variable_collection(self, name, variables):
        """Saves ``variables`` as the list attribute ``name`` of the root.

        Raises:
            ValueError: ``variables`` is not a list/tuple/set of variables.
        """
        from ..._core.variable import as_variable

        if not isinstance(variables, (list, tuple, set)):
            raise ValueError("Expected `variables` to be a list/tuple/set. Received instead "
                             f"object of type '{type(variables)}'.")
        variables = list(variables)
        if not all(as_variable(v) is not None for v in variables):
            raise ValueError("Expected all elements in `variables` to be `tf.Variable` "
                             f"instances. Found instead the following types: "
                             f"{sorted({type(v).__name__ for v in variables})}")
        setattr(self._root, name, variables)

    def _concrete(self, name):
        fn = getattr(self._root, name)
        found = _traces(fn)
        if fn._input_signature is not None or not found:
            return fn.get_concrete_function()
        return found[0]

    def write_out(self, filepath, options=None, verbose=True):
        """Writes the SavedModel to ``filepath`` and (``verbose``) prints its endpoints.

        Raises:
            ValueError: no endpoint registered, or a function that cannot be exported.
        """
        import os

        tf = _tf()
        if not self._endpoint_names:
            raise ValueError("No endpoints have been set yet. Call add_endpoint().")
        signatures = {n: self._concrete(n) for n in self._endpoint_names}
        if "serving_default" not in signatures:
            signatures["serving_default"] = signatures[self._endpoint_names[0]]
        tf.saved_model.save(self._root, filepath, signatures=signatures, options=options)
        if verbose:
            listing = "\n\n".join(_listing(n, self._concrete(n)) for n in self._endpoint_names)
            print(f"Saved artifact at '{os.fspath(filepath)}'. The following endpoints are "
                  f"available:\n\n{listing}")


_ROOT = []


def _root_type():
    """A ``tf.Module`` whose ``variables`` lists are plain attributes (saved as lists, as
    Keras's AutoTrackable root has them)."""
    if not _ROOT:
        tf = _tf()

        class _ExportRoot(tf.Module):
            variables = None
            trainable_variables = None
            non_trainable_variables = None

        _ROOT.append(_ExportRoot)
    return _ROOT[0]


def _traces(fn):
    from ...saved_model import objects

    return list(objects.concrete_functions(fn))


def _spec(s):
    tf = _tf()
    if isinstance(s, tf.TensorSpec):
        return s
    shape, dtype, name = getattr(s, "shape", None), getattr(s, "dtype", "float32"), \
        getattr(s, "name", None)
    return tf.TensorSpec(shape, dtype, name=name)


def _listing(name, cf):
    """Keras's printed endpoint: ``* Endpoint 'serve'`` and the function's signature with
    positional-only ``args_<i>`` and resource captures of shape ``()``."""
    from ...function.concrete_function import _type_text

    args, kwargs = cf.structured_input_signature
    named = cf._user_named()
    lines = [f"* Endpoint '{name}'"]
    for i, a in enumerate(args):
        lines.append(f"  args_{i} (POSITIONAL_ONLY): {_type_text(a, True, named)}")
    for k, a in kwargs.items():
        lines.append(f"  {k} (KEYWORD_ONLY): {_type_text(a, True, named)}")
    lines.append("Output Type:")
    lines.append(f"  {_type_text(cf.structured_outputs)}")
    lines.append("Captures:")
    prog = cf.program
    caps = [v for v in prog.variables if id(v) not in prog.var_arg_index]
    for v in caps:
        lines.append(f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)")
    if not caps:
        lines.append("  None")
    return "\n".join(lines)


def _model_signature(model, input_signature=None):
    """The ``[TensorSpec]`` the model's ``serve`` takes: given, or from its symbolic inputs
    (named as the Keras tensors, batch ``None``)."""
    tf = _tf()
    if input_signature is not None:
        return [_spec(s) for s in input_signature]
    inputs = model.inputs
    if not inputs:
        raise ValueError("The model provided has never called. It must be called at least "
                         "once before export, or pass `input_signature`.")
    if len(inputs) == 1:
        kt = inputs[0]
        return [tf.TensorSpec(kt.shape, kt.dtype, name=kt.name)]
    return [[tf.TensorSpec(kt.shape, kt.dtype, name=kt.name) for kt in inputs]]


def _serve_fn(model):
    """The model's inference call of one argument (a tensor, or a list for several
    inputs), the ``serve`` endpoint."""

    def serve(args_0):
        return model(args_0, training=False)

    return serve


def export_saved_model(model, filepath, verbose=True, input_signature=None):
    """``model.export(filepath)``: the model's inference ``call`` as the ``serve`` endpoint
    (and ``serving_default`` signature) of a SavedModel (``keras.export.export_saved_model``).

    Args:
        model: a built Keras model.
        filepath: the directory to write (str or path-like).
        verbose: print Keras's endpoint listing.
        input_signature: optional list of ``tf.TensorSpec``; default from ``model.inputs``.

    Raises:
        ValueError: an unbuilt model without ``input_signature``.
    """
    archive = ExportArchive()
    archive.track(model)
    sig = _model_signature(model, input_signature)
    archive.add_endpoint("serve", _serve_fn(model), input_signature=sig)
    archive.write_out(filepath, verbose=verbose)
    return archive
