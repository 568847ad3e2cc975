"""``keras.layers.TFSMLayer``: a SavedModel's endpoint called as a Keras layer."""
from ..._core.variable import Variable
from .layer import Layer


def _endpoint(loaded, name, select_hint):
    fn = getattr(loaded, name, None)
    if fn is not None and callable(fn):
        return fn
    signatures = getattr(loaded, "signatures", {})
    if name in signatures:
        return signatures[name]
    raise ValueError(f"The endpoint '{name}' is neither an attribute of the reloaded "
                     f"SavedModel, nor an entry in the `signatures` field of the reloaded "
                     f"SavedModel. {select_hint}Available endpoints for this SavedModel: "
                     f"{list(signatures.keys())}")


def _variables_of(fn):
    """The variables a loaded function (all its traces) or signature reads, in capture
    order."""
    traces = getattr(fn, "concrete_functions", None)
    if traces is None:
        traces = [fn]
    out = []
    for cf in traces:
        for c in getattr(cf, "captured_inputs", ()):
            if isinstance(c, Variable) and all(c is not o for o in out):
                out.append(c)
    return out


class TFSMLayer(Layer):
    """Calls an endpoint of a SavedModel (from ``model.export`` or ``tf.saved_model.save``)
    as a layer (``tf.keras.layers.TFSMLayer``). The loaded variables the endpoints read are
    the layer's weights (trainable ones first), live: training or assigning them changes
    what the endpoint computes.

    Args:
        filepath: the SavedModel directory.
        call_endpoint: the attribute or signature name called in inference (``"serve"``).
        call_training_endpoint: optional endpoint called with ``training=True``.
        trainable: whether the weights train.

    Call: ``layer(inputs, training=False, **kwargs)`` passes ``inputs`` (tensor or the
    structure the endpoint takes) to the endpoint.

    Raises:
        ValueError: an endpoint that is neither an attribute nor a signature.
        OSError / FileNotFoundError: what ``tf.saved_model.load`` raises for the directory.
    """

    def __init__(self, filepath, call_endpoint="serve", call_training_endpoint=None,
                 trainable=True, name=None, dtype=None):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        from ... import saved_model

        loaded = saved_model.load(filepath)
        object.__setattr__(self, "_reloaded_obj", loaded)
        self.filepath = filepath
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        object.__setattr__(self, "call_endpoint_fn", _endpoint(
            loaded, call_endpoint, "Select another endpoint via the `call_endpoint` "
            "argument. "))
        fns = [self.call_endpoint_fn]
        if call_training_endpoint:
            object.__setattr__(self, "call_training_endpoint_fn",
                               _endpoint(loaded, call_training_endpoint, ""))
            fns.append(self.call_training_endpoint_fn)
        found = []
        for fn in fns:
            found += [v for v in _variables_of(fn) if all(v is not o for o in found)]
        self._own_weights.extend([v for v in found if v.trainable] +
                                 [v for v in found if not v.trainable])
        self.built = True

    def call(self, inputs, training=False, **kwargs):
        if training and self.call_training_endpoint:
            return self.call_training_endpoint_fn(inputs, **kwargs)
        return self.call_endpoint_fn(inputs, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.update(filepath=self.filepath, call_endpoint=self.call_endpoint,
                      call_training_endpoint=self.call_training_endpoint)
        return config
