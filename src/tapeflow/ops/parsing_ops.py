"""Parsing ``tf.train.Example`` protos and serialized tensors: ``tf.io.parse_single_example``,
``tf.io.parse_example``, the feature specs ``FixedLenFeature``, ``VarLenFeature``,
``FixedLenSequenceFeature``, ``RaggedFeature``, and ``tf.io.serialize_tensor`` /
``tf.io.parse_tensor``.

Each parse is one op (``ParseExampleV2``, ``ParseTensor``) whose outputs a traced program
recomputes from each call's strings; the protos are read by the schema codec ``_protobuf``.
None of these ops has a gradient (TF registers none).
"""
import collections

from .. import _protobuf as pb
from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive
from .._core.tensor import string_value
from ._helpers import to_tensor

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "VarLenFeature",
           "parse_example", "parse_single_example", "parse_tensor", "serialize_tensor"]


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of fixed shape, parsed to a dense tensor (``tf.io.FixedLenFeature``).

    Fields: ``shape`` (list of ints), ``dtype`` (``tf.float32``, ``tf.int64`` or
    ``tf.string``), ``default_value`` (used when an Example lacks the feature; None makes
    it required).
    """

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any length, parsed to a ``SparseTensor`` (``tf.io.VarLenFeature``)."""


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A sequence of fixed-shape items, parsed to a dense ``[n] + shape`` tensor
    (``tf.io.FixedLenSequenceFeature``); ``parse_example`` pads the batch with
    ``default_value`` (0 or ``b""`` when None)."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A feature parsed to a ``RaggedTensor`` (``tf.io.RaggedFeature``): the values of
    ``value_key`` (the dict key when None). ``parse_single_example`` gives a 1-D tensor,
    ``parse_example`` a ``[batch, None]`` RaggedTensor with ``row_splits_dtype`` splits.
    Only ``partitions=()`` is supported."""

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=_dt.int32,
                validate=False):
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype,
                               validate)


_KIND_NAME = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}
_LIST_OF = {"float": "float_list", "int64": "int64_list", "string": "bytes_list"}
_NP_OF = {"float": np.float32, "int64": np.int64, "string": object}


def _type_name(dtype):
    dtype = _dt.as_dtype(dtype)
    name = {_dt.float32: "float", _dt.int64: "int64", _dt.string: "string"}.get(dtype)
    if name is None:
        raise ValueError(f"Unsupported dtype {dtype.name}. Supported dtypes are "
                         "tf.float32, tf.int64 and tf.string")
    return name


def _escape(data):
    out = []
    for b in data:
        c = chr(b)
        if c in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[c])
        elif c in "\"'\\":
            out.append("\\" + c)
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


class _ParseError(Exception):
    pass


def _values(feature, want, where, single, fixed):
    """The values of one Feature proto as a list, checked against type ``want``."""
    kind = feature.which_oneof("kind")
    if kind is None:
        return []
    got = _KIND_NAME[kind]
    if got != want:
        if fixed:
            raise _ParseError(f"{where}.  Data types don't match. Data type: {got} but "
                              f"expected type: {want}")
        raise _ParseError(f"{where}.  Data types don't match. Expected type: {want}, "
                          f"Actual type: {got}")
    return list(getattr(feature, kind).value)


def _parse_forward(serialized, *defaults, spec, single):
    records = [bytes(s) for s in np.asarray(serialized, object).reshape(-1)]
    examples = []
    for rec in records:
        try:
            examples.append(pb.decode("tensorflow.Example", rec).features.feature)
        except pb.DecodeError:
            raise _ParseError("Could not parse example input, value: "
                              f"'{rec.decode('utf-8', 'replace')}'") \
                from None
    outs = []
    batch = len(examples)
    for (key, kind, tname, shape, extra), default in zip(spec, defaults):
        np_t = _NP_OF[tname]
        fixed = kind == "fixed"
        per = []
        for b, feats in enumerate(examples):
            where = f"Key: {key}" if single else f"Name: <unknown>, Key: {key}, Index: {b}"
            f = feats.get(key)
            per.append(None if f is None else _values(f, tname, where, single, fixed))
        size = int(np.prod(shape)) if shape else 1
        if kind == "fixed":
            rows = []
            for b, vals in enumerate(per):
                if vals is None:
                    if default is None or default.size == 0 and size:
                        lead = "" if single else "Name: <unknown>, "
                        raise _ParseError(f"{lead}Feature: {key} (data type: {tname}) is "
                                          "required but could not be found.")
                    rows.append(np.broadcast_to(default, shape).astype(np_t))
                    continue
                if len(vals) != size:
                    where = (f"Key: {key}" if single
                             else f"Name: <unknown>, Key: {key}, Index: {b}")
                    raise _ParseError(f"{where}.  Can't parse serialized Example: Some "
                                      f"{_LIST_OF[tname]} slice was not parsed.")
                rows.append(np.asarray(vals, np_t).reshape(shape))
            out = np.stack(rows) if rows else np.zeros((0, *shape), np_t)
            if np_t is object and not rows:
                out = np.full((0, *shape), b"", object)
            outs.append(out[0, ...] if single else out)
        elif kind in ("var", "ragged"):
            flat = [v or [] for v in per]
            values = np.asarray([x for v in flat for x in v], np_t)
            if np_t is object:
                values = np.empty(sum(map(len, flat)), object)
                values[:] = [x for v in flat for x in v]
            if kind == "ragged":
                outs.append(values)
                if not single:
                    splits = np.concatenate([[0], np.cumsum([len(v) for v in flat])])
                    outs.append(splits.astype(extra))
                continue
            if single:
                n = len(flat[0])
                outs += [np.arange(n, dtype=np.int64).reshape(n, 1), values,
                         np.array([n], np.int64)]
            else:
                idx = [(b, i) for b, v in enumerate(flat) for i in range(len(v))]
                outs += [np.asarray(idx, np.int64).reshape(-1, 2), values,
                         np.array([batch, max((len(v) for v in flat), default=0)], np.int64)]
        else:   # "seq": FixedLenSequenceFeature
            allow_missing = extra
            rows = []
            for b, vals in enumerate(per):
                if vals is None:
                    if not allow_missing:
                        raise _ParseError(f"Name: <unknown>, Feature list '{key}' is required"
                                          " but could not be found.  Did you mean to include "
                                          "it in feature_list_dense_missing_assumed_empty or "
                                          "feature_list_dense_defaults?")
                    vals = []
                if size and len(vals) % size:
                    raise _ParseError(f"Name: <unknown>, Key: {key}, Index: {b}.  Number of "
                                      f"{tname} values is not a multiple of stride length. "
                                      f"Saw {len(vals)} values but output shape is: "
                                      f"[?,{','.join(map(str, shape))}]")
                rows.append(np.asarray(vals, np_t).reshape((-1, *shape)))
            if single:
                outs.append(rows[0])
                continue
            n = max((r.shape[0] for r in rows), default=0)
            fill = (default if default is not None and default.size
                    else np.asarray(b"" if np_t is object else 0, np_t))
            out = np.empty((batch, n, *shape), np_t)
            out[...] = np.broadcast_to(fill.astype(np_t), shape) if fill.ndim else fill
            for b, r in enumerate(rows):
                out[b, :r.shape[0]] = r
            outs.append(out)
    return tuple(string_value(o) if o.dtype == object else o for o in outs)


def _raise(exc):
    raise errors.InvalidArgumentError(None, None, f"{exc} [Op:ParseExampleV2]") from None


def _build_spec(features):
    spec, defaults = [], []
    keys = {}
    for key in sorted(features):
        f = features[key]
        if isinstance(f, FixedLenFeature):
            tname = _type_name(f.dtype)
            shape = tuple(int(d) for d in f.shape)
            default = (None if f.default_value is None
                       else np.asarray(f.default_value, _NP_OF[tname]).reshape(-1))
            if default is not None and default.size not in (1, int(np.prod(shape))):
                raise ValueError(f"Shapes {shape} and {default.shape} are incompatible")
            if default is not None:
                default = np.broadcast_to(default.reshape(shape) if default.size > 1
                                          else default.reshape(()), shape)
            spec.append((key, "fixed", tname, shape, None))
            defaults.append(default)
        elif isinstance(f, VarLenFeature):
            spec.append((key, "var", _type_name(f.dtype), (), None))
            defaults.append(None)
            keys.setdefault("sparse", []).append(key)
        elif isinstance(f, RaggedFeature):
            if f.partitions:
                raise NotImplementedError("RaggedFeature partitions are not supported by "
                                          "tapeflow yet")
            name = f.value_key or key
            spec.append((name, "ragged", _type_name(f.dtype), (),
                         _dt.as_dtype(f.row_splits_dtype)._np))
            defaults.append(None)
            keys.setdefault("ragged", []).append(name)
        elif isinstance(f, FixedLenSequenceFeature):
            tname = _type_name(f.dtype)
            shape = tuple(int(d) for d in f.shape)
            default = (None if f.default_value is None
                       else np.asarray(f.default_value, _NP_OF[tname]))
            spec.append((key, "seq", tname, shape, bool(f.allow_missing)))
            defaults.append(default)
        else:
            raise ValueError(f"Unsupported feature type for {key!r}: {type(f).__name__}")
    both = set(keys.get("ragged", ())) & set(keys.get("sparse", ()))
    if both:
        raise ValueError(f"Ragged and sparse keys must not intersect; ragged_keys: "
                         f"{keys['ragged']}, sparse_keys: {keys['sparse']}, "
                         f"intersection: {both}")
    return spec, defaults


def _run(serialized, features, single):
    from .ragged.ragged_tensor import RaggedTensor
    from .sparse.sparse_tensor import SparseTensor
    if not features:
        raise ValueError("Must provide at least one feature key.")
    s = to_tensor(serialized)
    if s.dtype != _dt.string:
        raise TypeError(f"Expected string passed to parameter 'serialized' of op "
                        f"'ParseExampleV2', got {s.dtype.name}")
    spec, defaults = _build_spec(features)
    attrs = {"spec": tuple(spec), "single": single}
    # the defaults are closed over by the primitive, so the op's one input is the strings
    outs = list(apply(_PARSE_WITH(tuple(defaults)), (s,), attrs))
    result = {}
    pos = 0
    for key, (_, kind, _, _, _) in zip(sorted(features), spec):
        if kind == "var":
            ind, val, shape = outs[pos:pos + 3]
            pos += 3
            result[key] = SparseTensor(ind, val, shape)
        elif kind == "ragged" and not single:
            # TF keeps the spec's row_splits_dtype (int32 by default)
            result[key] = RaggedTensor(outs[pos], outs[pos + 1], internal=True)
            pos += 2
        else:
            result[key] = outs[pos]
            pos += 1
    return result


_PRIMS = {}


def _PARSE_WITH(defaults):  # noqa: N802 - a primitive factory
    """The parse primitive closed over the feature defaults (arrays are not hashable)."""
    key = tuple(None if d is None else (d.dtype.str, d.shape, d.tobytes() if d.dtype != object
                                        else tuple(d.reshape(-1).tolist())) for d in defaults)
    prim = _PRIMS.get(key)
    if prim is None:
        def forward(serialized, *, spec, single):
            return _parse_forward(serialized, *defaults, spec=spec, single=single)
        prim = Primitive("ParseExampleV2", forward, differentiable=False, save_inputs=False,
                         n_outputs=-1, error=lambda v, a, e: _raise(e))
        _PRIMS[key] = prim
    return prim


def parse_single_example(serialized, features, example_names=None, name=None):
    """Parse one serialized ``tf.train.Example`` (``tf.io.parse_single_example``).

    Args:
        serialized: a scalar string tensor (or bytes).
        features: a dict from feature key to ``FixedLenFeature``, ``VarLenFeature``,
            ``FixedLenSequenceFeature`` or ``RaggedFeature``.
        example_names, name: unused.

    Returns:
        A dict with the same keys: a dense tensor of the feature's shape (``FixedLen``), a
        1-D ``SparseTensor`` (``VarLen``), a ``[n] + shape`` tensor (``FixedLenSequence``),
        a 1-D tensor (``RaggedFeature``). Values are float32, int64 or string.

    Raises:
        tf.errors.InvalidArgumentError: bytes that are not an Example, a required feature
            missing, a type or size that does not match the spec (TF's messages).
        ValueError: an empty or invalid spec.
    """
    return _run(serialized, features, True)


def parse_example(serialized, features, example_names=None, name=None):
    """Parse a batch of serialized ``tf.train.Example`` protos (``tf.io.parse_example``).

    Args:
        serialized: a 1-D string tensor ``[batch]``.
        features: a dict from feature key to a feature spec (see ``parse_single_example``).
        example_names, name: unused.

    Returns:
        A dict: ``[batch] + shape`` dense tensors (``FixedLen``), 2-D SparseTensors with
        dense shape ``[batch, max_len]`` (``VarLen``), ``[batch, max_n] + shape`` tensors
        padded with the default (``FixedLenSequence``), ``[batch, None]`` RaggedTensors.

    Raises:
        tf.errors.InvalidArgumentError: as ``parse_single_example``, the messages naming the
            example index.
    """
    return _run(serialized, features, False)


# -- serialized tensors ---------------------------------------------------------------------
_ENUM = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
         "string": 7, "complex64": 8, "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17,
         "complex128": 18, "float16": 19, "uint32": 22, "uint64": 23}
_TF_NAME = {1: "float", 2: "double", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
            7: "string", 8: "complex64", 9: "int64", 10: "bool", 14: "bfloat16", 17: "uint16",
            18: "complex128", 19: "half", 22: "uint32", 23: "uint64"}


def _serialize_forward(x, *, dtype_name):
    shape = pb.Message("tensorflow.TensorShapeProto",
                       dim=[pb.Message("tensorflow.TensorShapeProto.Dim", size=int(d))
                            for d in np.shape(x)])
    proto = pb.Message("tensorflow.TensorProto", dtype=_ENUM[dtype_name], tensor_shape=shape)
    if dtype_name == "string":
        proto.string_val = [bytes(s) for s in np.asarray(x, object).reshape(-1)]
    else:
        data = np.ascontiguousarray(x).tobytes()
        if data:
            proto.tensor_content = data
    return string_value(pb.encode(proto))


_SERIALIZE = Primitive("SerializeTensor", _serialize_forward, differentiable=False,
                       save_inputs=False)


def serialize_tensor(tensor, name=None):
    """``tensor`` as the bytes of a ``TensorProto`` (``tf.io.serialize_tensor``).

    Args:
        tensor: a tensor of any dtype and shape.
        name: unused.

    Returns:
        A scalar string tensor, byte for byte TF's (dtype, shape, then the raw little-endian
        ``tensor_content``, or ``string_val`` for strings).
    """
    t = to_tensor(tensor)
    return apply(_SERIALIZE, (t,), {"dtype_name": t.dtype.name})


def _parse_tensor_forward(s, *, dtype_name):
    data = bytes(np.asarray(s, object).reshape(-1)[0])
    try:
        proto = pb.decode("tensorflow.TensorProto", data)
    except pb.DecodeError:
        raise _TensorParseError("Could not parse `serialized` as TensorProto: "
                                f"'{_escape(data)}'") from None
    want = _ENUM[dtype_name]
    if proto.dtype != want:
        raise _TensorParseError(f"Type mismatch between parsed tensor "
                                f"({_TF_NAME.get(proto.dtype, proto.dtype)}) and dtype "
                                f"({_TF_NAME[want]})")
    shape = [d.size for d in proto.tensor_shape.dim]
    np_dtype = _dt.as_dtype(dtype_name)._np
    if dtype_name == "string":
        out = np.empty(len(proto.string_val), object)
        out[:] = list(proto.string_val)
        return string_value(out.reshape(shape))
    if proto.tensor_content or not int(np.prod(shape)):
        return np.frombuffer(proto.tensor_content, np_dtype).reshape(shape).copy()
    raise _TensorParseError("a TensorProto without tensor_content is not supported")


class _TensorParseError(Exception):
    pass


def _tensor_error(values, attrs, exc):
    return errors.InvalidArgumentError, str(exc)


_PARSE_TENSOR = Primitive("ParseTensor", _parse_tensor_forward, differentiable=False,
                          save_inputs=False, error=_tensor_error)


def parse_tensor(serialized, out_type, name=None):
    """The tensor whose ``TensorProto`` bytes are ``serialized`` (``tf.io.parse_tensor``).

    Args:
        serialized: a scalar string tensor, as ``serialize_tensor`` writes.
        out_type: the DType the proto must hold.
        name: unused.

    Returns:
        A tensor of ``out_type`` with the stored shape.

    Raises:
        tf.errors.InvalidArgumentError: bytes that are not a TensorProto, or one of another
            dtype ("Type mismatch between parsed tensor (float) and dtype (int32)").
    """
    s = to_tensor(serialized)
    return apply(_PARSE_TENSOR, (s,), {"dtype_name": _dt.as_dtype(out_type).name})
