"""EinsumDense (``tf.keras.layers.EinsumDense``): a dense layer whose product is an einsum."""
import re

from ...ops import math_ops as _m
from ...ops import special_math_ops as _sm
from .. import activations as _act
from .. import constraints as _constraints
from .. import initializers as _init
from .. import regularizers as _reg
from .layer import Layer, serialize

__all__ = ["EinsumDense"]

_FORMS = (  # (pattern with '...' written as '0', ellipsis on the left)
    (r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", False),
    (r"0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", True),
    (r"([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", False),
)


def _shapes(equation, bias_axes, input_shape, partial_output):
    """``(kernel_shape, bias_shape or None, full_output_shape)`` for ``equation`` on inputs
    of ``input_shape``; Keras's rules and error texts."""
    flat = equation.replace("...", "0")
    for pattern, left in _FORMS:  # noqa: B007 - used after the loop
        match = re.match(pattern, flat)
        if match:
            break
    else:
        raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the "
                         "form [X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")
    in_spec, w_spec, out_spec = match.groups()
    input_shape = list(input_shape)
    elided = len(input_shape) - len(in_spec)
    out = [input_shape[0]] + list(partial_output)
    if elided > 0 and left:
        out[1:1] = input_shape[1:elided][::-1]  # Keras inserts each at 1: reversed
    elif elided > 0:
        out += input_shape[len(input_shape) - elided:]
    offset = elided if left else 0
    in_pos = {c: (i + elided - len(input_shape)) if left else i for i, c in enumerate(in_spec)}
    out_pos = {c: i + offset for i, c in enumerate(out_spec)}
    for c in in_spec:
        if c in out_pos and out[out_pos[c]] is not None \
                and out[out_pos[c]] != input_shape[in_pos[c]]:
            raise ValueError(f"Input shape and output shape do not match at shared dimension "
                             f"'{c}'. Input shape is {input_shape[in_pos[c]]}, and output "
                             f"shape is {out[out_pos[c]]}.")
    for c in out_spec:
        if c not in in_spec and c not in w_spec:
            raise ValueError(f"Dimension '{c}' was specified in the output '{out_spec}' but "
                             f"has no corresponding dim in the input spec '{in_spec}' or "
                             f"weight spec '{out_spec}'")
    kernel = []
    for c in w_spec:
        if c in out_pos:
            kernel.append(out[out_pos[c]])
        elif c in in_pos:
            kernel.append(input_shape[in_pos[c]])
        else:
            raise ValueError(f"Weight dimension '{c}' did not have a match in either the "
                             f"input spec '{in_spec}' or the output spec '{out_spec}'. For "
                             "this layer, the weight must be fully specified.")
    bias = None
    if bias_axes is not None:
        for c in bias_axes:
            if c not in out_spec:
                raise ValueError(f"Bias dimension '{c}' was requested, but is not part of "
                                 f"the output spec '{out_spec}'")
        first = min(out_spec.find(c) for c in bias_axes)
        bias = [out[out_spec.find(c) + offset] if c in bias_axes else 1
                for c in out_spec[first:]]
        if not left:
            bias += [1] * max(elided, 0)
    return kernel, bias, out


class EinsumDense(Layer):
    """``activation(einsum(equation, inputs, kernel) + bias)``
    (``tf.keras.layers.EinsumDense``).

    Args:
        equation: ``'<input>,<kernel>-><output>'``, optionally with ``...`` leading the input
            and output or trailing them (``'ab,bc->ac'``, ``'...b,bc->...c'``,
            ``'abc...,cd->abd...'``).
        output_shape: an int or tuple, the output shape without the batch axis (and without
            the elided axes); ``None`` entries take the input's size.
        activation: applied last.
        bias_axes: the output letters that have a bias (None: no bias).
        kernel_initializer, bias_initializer, *_regularizer, *_constraint: as for ``Dense``.

    Weights: ``kernel`` (the sizes of its letters), then ``bias``.

    Raises:
        ValueError: for an equation of another form or letters that do not match.
        NotImplementedError: for ``lora_rank`` or a quantization config (not supported).
    """

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, lora_rank=None, lora_alpha=None,
                 gptq_unpacked_column_size=None, quantization_config=None, **kwargs):
        super().__init__(**kwargs)
        if lora_rank or quantization_config is not None or gptq_unpacked_column_size:
            raise NotImplementedError("tapeflow's EinsumDense has no LoRA or quantization")
        self.equation = equation
        self.partial_output_shape = ((output_shape,) if isinstance(output_shape, int)
                                     else tuple(output_shape))
        self.bias_axes = bias_axes
        self.activation = _act.get(activation)
        self.kernel_initializer = _init.get(kernel_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer = _reg.get(kernel_regularizer)
        self.bias_regularizer = _reg.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.kernel = self.bias = None

    def build(self, input_shape):
        kernel, bias, out = _shapes(self.equation, self.bias_axes, input_shape,
                                    self.partial_output_shape)
        self.full_output_shape = tuple(out)
        self.kernel = self.add_weight(name="kernel", shape=tuple(kernel),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if bias is not None:
            self.bias = self.add_weight(name="bias", shape=tuple(bias),
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def compute_output_shape(self, input_shape):
        return tuple(_shapes(self.equation, self.bias_axes, input_shape,
                             self.partial_output_shape)[2])

    def call(self, inputs):
        x = _sm.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            x = _m.add(x, self.bias)
        return self.activation(x)

    def get_config(self):
        return dict(super().get_config(), output_shape=self.partial_output_shape,
                    equation=self.equation, activation=serialize(self.activation),
                    bias_axes=self.bias_axes,
                    kernel_initializer=serialize(self.kernel_initializer),
                    bias_initializer=serialize(self.bias_initializer),
                    kernel_regularizer=serialize(self.kernel_regularizer),
                    bias_regularizer=serialize(self.bias_regularizer),
                    activity_regularizer=serialize(self.activity_regularizer),
                    kernel_constraint=serialize(self.kernel_constraint),
                    bias_constraint=serialize(self.bias_constraint),
                    quantization_config=None)
