# ruff: noqa: E501 - a table of snippets, one case per string
"""Record what TF 2.21 prints for ``tf.experimental.ExtensionType`` cases (the core of TF's
extension_type guide: fields, conversion, validation, repr, equality, immutability, Spec).

Each case is a snippet run with ``tf`` bound; its printed lines (or the exception class and
message) go to ``tests/fixtures/experimental/extension_type.json``.
Usage: TF_CPP_MIN_LOG_LEVEL=2 /work/tfenv/bin/python tools/record_extension_type.py
"""
import contextlib
import io
import json
import pathlib

PRELUDE = '''
import typing
class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor
class Pair(tf.experimental.ExtensionType):
    x: int
    y: float = 2.5
    name: str = "p"
class Shaped(tf.experimental.ExtensionType):
    values: tf.Tensor
    shape: tf.TensorShape = None
    dtype: tf.DType = tf.float32
    tags: typing.Tuple[int, ...] = ()
class Checked(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor
    def __validate__(self):
        self.values.shape.assert_is_compatible_with(self.mask.shape)
        assert self.mask.dtype.is_bool, "mask.dtype must be bool"
class Ctor(tf.experimental.ExtensionType):
    a: tf.Tensor
    def __init__(self, a):
        self.a = tf.convert_to_tensor(a) * 2
    def double(self):
        return Ctor(self.a)
class Opt(tf.experimental.ExtensionType):
    v: typing.Optional[int] = None
    u: typing.Union[int, str] = 1
    m: typing.Mapping[str, int] = {}
'''

CASES = {
    "fields": "mt = MaskedTensor([1, 2, 3], [True, False, True])\nprint(mt.values)\nprint(mt.mask)",
    "repr": "print(MaskedTensor(values=[1., 2.], mask=[True, False]))",
    "repr_py": "print(Pair(1))\nprint(repr(Pair(x=3, y=1, name='q')))",
    "defaults": "p = Pair(4)\nprint(p.x, p.y, p.name, type(p.y).__name__)",
    "int_to_float": "p = Pair(4, 3)\nprint(p.y, type(p.y).__name__)",
    "bad_type": "Pair('a')",
    "bad_float": "Pair(1, 'x')",
    "missing": "MaskedTensor([1])",
    "too_many": "Pair(1, 2.0, 'a', 4)",
    "unknown_kw": "Pair(1, z=2)",
    "immutable": "p = Pair(1)\np.x = 2",
    "immutable_del": "p = Pair(1)\ndel p.x",
    "eq_py": "print(Pair(1) == Pair(1), Pair(1) == Pair(2), Pair(1) != Pair(2))",
    "eq_tensor": "a = MaskedTensor([1, 2], [True, False])\nb = MaskedTensor([1, 2], [True, False])\nc = MaskedTensor([1, 3], [True, False])\nprint(a == b)\nprint(a == c)\nprint(a != c)",
    "eq_shape": "print(MaskedTensor([1, 2], [True, False]) == MaskedTensor([1, 2, 3], [True, False, True]))",
    "shape_dtype": "s = Shaped([1., 2.], [2, None], 'int32')\nprint(s.values.dtype, s.shape, s.dtype, s.tags)",
    "shape_default": "s = Shaped([1., 2.])\nprint(s.shape, s.dtype)",
    "bad_dtype": "Shaped([1.], dtype=3)",
    "tuple_field": "s = Shaped([1.], tags=[1, 2])\nprint(s.tags, type(s.tags).__name__)",
    "tuple_bad": "Shaped([1.], tags=[1, 'a'])",
    "validate_ok": "print(Checked([1, 2], [True, False]).values)",
    "validate_bad": "Checked([1, 2], [1, 0])",
    "validate_shape": "Checked([1, 2], [True])",
    "ctor": "print(Ctor([1, 2]).a)\nprint(Ctor([1, 2]).double().a)",
    "optional": "o = Opt()\nprint(o.v, o.u, dict(o.m))\no = Opt(v=3, u='s', m={'a': 1})\nprint(o.v, o.u, dict(o.m))",
    "optional_bad": "Opt(v='x')",
    "mapping_immutable": "o = Opt(m={'a': 1})\no.m['b'] = 2",
    "spec_class": "mt = MaskedTensor([1, 2], [True, False])\nprint(type(mt._type_spec).__name__)\nprint(MaskedTensor.Spec.__name__)\nprint(isinstance(mt._type_spec, tf.TypeSpec))",
    "spec_value_type": "print(MaskedTensor.Spec.value_type is MaskedTensor)",
    "spec_repr": "print(MaskedTensor.Spec(values=tf.TensorSpec([2], tf.int32), mask=tf.TensorSpec([2], tf.bool)))",
    "isinstance": "mt = MaskedTensor([1], [True])\nprint(isinstance(mt, tf.experimental.ExtensionType), tf.is_tensor(mt))",
    "function_arg": "@tf.function\ndef f(mt):\n    return tf.reduce_sum(tf.where(mt.mask, mt.values, 0))\nprint(f(MaskedTensor([1, 2, 3], [True, False, True])))",
    "function_return": "@tf.function\ndef g(x):\n    return MaskedTensor(x, x > 1)\nprint(g(tf.constant([1, 2, 3])).mask)",
    "nest_flatten": "mt = MaskedTensor([1, 2], [True, False])\nprint(tf.nest.flatten(mt))\nprint(len(tf.nest.flatten(mt, expand_composites=True)))",
    "dispatch_api": "@tf.experimental.dispatch_for_api(tf.stack)\ndef masked_stack(values: typing.List[MaskedTensor], axis=0):\n    return MaskedTensor(tf.stack([v.values for v in values], axis), tf.stack([v.mask for v in values], axis))\na = MaskedTensor([1, 2], [True, False])\nr = tf.stack([a, a], axis=1)\nprint(r.values)\nprint(r.mask)\nprint(tf.stack([tf.constant(1), tf.constant(2)]))\ntf.experimental.unregister_dispatch_for(masked_stack)\ntry:\n    tf.stack([a, a])\nexcept Exception as e:\n    print(type(e).__name__)",
    "dispatch_union": "@tf.experimental.dispatch_for_api(tf.math.add)\ndef madd(x: typing.Union[MaskedTensor, tf.Tensor], y: typing.Union[MaskedTensor, tf.Tensor], name=None):\n    xv = x.values if isinstance(x, MaskedTensor) else x\n    yv = y.values if isinstance(y, MaskedTensor) else y\n    return xv + yv\nprint(tf.math.add(MaskedTensor([1, 2], [True, True]), tf.constant([10, 20])))\nprint(tf.add(tf.constant([1]), MaskedTensor([5], [True])))\nprint(tf.math.add(tf.constant([1]), tf.constant([2])))\ntf.experimental.unregister_dispatch_for(madd)",
    "dispatch_unary": "@tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)\ndef unary(api_func, x):\n    return MaskedTensor(api_func(x.values), x.mask)\nmt = MaskedTensor([-1., 4.], [True, False])\nprint(tf.math.abs(mt).values)\nprint(tf.abs(mt).values)\nprint(tf.math.sqrt(tf.math.abs(mt)).values)\nprint(tf.negative(mt).values)\nprint(tf.math.exp(mt).mask)\ntf.experimental.unregister_dispatch_for(unary)\ntry:\n    tf.abs(mt)\nexcept Exception as e:\n    print(type(e).__name__)",
    "dispatch_binary": "@tf.experimental.dispatch_for_binary_elementwise_apis(MaskedTensor, MaskedTensor)\ndef binary(api_func, x, y):\n    return MaskedTensor(api_func(x.values, y.values), x.mask & y.mask)\na = MaskedTensor([1., 2.], [True, False])\nb = MaskedTensor([3., 5.], [True, True])\nprint(tf.math.add(a, b).values)\nprint(tf.maximum(a, b).values)\nprint(tf.math.multiply(a, b).mask)\nprint(tf.subtract(a, b).values)\ntf.experimental.unregister_dispatch_for(binary)",
    "batchable": "class B(tf.experimental.BatchableExtensionType):\n    v: tf.Tensor\nprint(B([1, 2]).v)\nprint(isinstance(B([1]), tf.experimental.ExtensionType))",
}


def main():
    import tensorflow as tf
    out = {}
    env = {"tf": tf}
    exec(PRELUDE, env)  # noqa: S102 - the recorded classes
    for name, code in CASES.items():
        buf = io.StringIO()
        rec = {"code": code}
        try:
            with contextlib.redirect_stdout(buf):
                exec(code, dict(env))  # noqa: S102 - the recorded snippet
        except Exception as exc:  # noqa: BLE001 - the class and message are the record
            rec["error"] = type(exc).__name__
            rec["message"] = str(exc)
        rec["stdout"] = buf.getvalue()
        out[name] = rec
    path = (pathlib.Path(__file__).resolve().parent.parent
            / "tests/fixtures/experimental/extension_type.json")
    path.write_text(json.dumps({"prelude": PRELUDE, "cases": out}, indent=1) + "\n")
    print(path, len(out))


if __name__ == "__main__":
    main()
