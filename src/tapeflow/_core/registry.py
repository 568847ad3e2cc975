"""The op table: a primitive is a NumPy forward plus one derivative rule per input.

A rule is ``rule(g, y, *inputs, **attrs)`` written with tapeflow's own ops on Tensors, so an
outer tape records it and derivatives of any order come for free. ``g`` is the upstream
gradient (a tuple of them for multi-output ops), ``y`` the op's output when the primitive
saves it, ``inputs`` the input Tensors when it saves them (else each input's shape). A rule may
return ``None`` for "no gradient". Broadcasting is undone by the engine, never by a rule.
"""

__all__ = [
    "Primitive", "primitive", "defvjp", "defjvp", "nondifferentiable", "PRIMITIVES", "PerInput",
]

PRIMITIVES = {}


class Primitive:
    """One op type, named as TensorFlow names it (``AddV2``, ``MatMul``) for error messages.

    Attributes:
        name: the TF op type.
        forward: ``forward(*arrays, **attrs) -> array`` (a tuple for multi-output ops).
        vjps: per input, the rule giving that input's gradient, or ``None``.
        jvp: optional forward-mode rule ``jvp(tangents, y, *inputs, **attrs)``.
        save_inputs / save_output: whether the tape must keep the inputs / the output.
        n_outputs: 1, or the number of outputs of a multi-output op.
        differentiable: False for ops that record nothing (comparisons, argmax).
        error: optional ``error(arrays, attrs, exc) -> (exception class, message)``.
        none_grads: for a multi-output op, hand its rules ``None`` for outputs that got no
            gradient instead of zeros (the rule then skips that term).
        sparse_vjps: optional per-input rules giving an ``IndexedSlices``, used by
            ``GradientTape.gradient`` when that input is itself a source (``tf.gather``).
        shape_inputs: the positions of inputs the forward reads only for their shape
            (``tf.shape(x)``, a reduction's gradient spread back over ``x``): a traced
            program whose shapes are fixed may fold the op to a constant when its other
            inputs are constants; a program traced with relaxed shapes may not.
    """

    __slots__ = ("name", "forward", "vjps", "jvp", "save_inputs", "save_output",
                 "n_outputs", "differentiable", "error", "none_grads", "sparse_vjps",
                 "shape_inputs")

    def __init__(self, name, forward, save_inputs=True, save_output=False, n_outputs=1,
                 differentiable=True, error=None, none_grads=False, shape_inputs=()):
        self.name = name
        self.forward = forward
        self.vjps = ()
        self.jvp = None
        self.save_inputs = save_inputs
        self.save_output = save_output
        self.n_outputs = n_outputs
        self.differentiable = differentiable
        self.error = error
        self.none_grads = none_grads
        self.sparse_vjps = None
        self.shape_inputs = shape_inputs

    def __repr__(self):
        return f"<Primitive {self.name}>"


def primitive(name, forward, **kwargs) -> Primitive:
    """Declare a primitive and add it to the op table."""
    if name in PRIMITIVES:
        raise ValueError(f"primitive {name} is declared twice")
    p = PRIMITIVES[name] = Primitive(name, forward, **kwargs)
    return p


def defvjp(prim: Primitive, *rules) -> Primitive:
    """Give ``prim`` one reverse-mode rule per input (``None`` where an input has none)."""
    prim.vjps = rules
    return prim


def defjvp(prim: Primitive, rule) -> Primitive:
    """Give ``prim`` a forward-mode rule; without one forward mode differentiates the VJP."""
    prim.jvp = rule
    return prim


def nondifferentiable(name, forward, **kwargs) -> Primitive:
    """Declare a primitive without gradient: it records nothing on any tape."""
    return primitive(name, forward, differentiable=False, save_inputs=False, **kwargs)


class PerInput:
    """The rules of an op of any arity (concat, stack), one per input, made on demand for
    input ``k``: a sequence as long as any op's input list."""

    def __init__(self, make):
        self.make = make

    def __len__(self):
        return 1 << 30

    def __getitem__(self, k):
        return self.make(k)
