"""A SavedModel's MetaGraphDef from an object graph (``objects.walk``): the function library
(each concrete function's program lowered by ``function/graph_def.py``, a wrapper per
signature, the saver's save and restore functions), the object graph, the outer graph TF 1's
Session loader runs (a VarHandleOp per variable, a Placeholder and a StatefulPartitionedCall
per signature, the saver's nodes), ``saver_def``, ``signature_def`` and ``collection_def``.

TF's counterpart: ``tensorflow/python/saved_model/save.py`` and ``signature_serialization.py``.
"""
import numpy as np

from .. import _protobuf as pb
from .._core import nest
from .._core.tensor_spec import TensorSpec
from .._core.variable import as_variable
from ..checkpoint.graph import OBJECT_GRAPH_KEY, VALUE, checkpoint_key, full_name
from ..function import graph_def as gd
from ..function.concrete_function import _identifier, _is_composite
from . import composites, revive
from .objects import concrete_functions

__all__ = ["build", "Export"]

TF_VERSION = "2.21.0"
PREDICT = "tensorflow/serving/predict"
INIT_OP_KEY = "__saved_model_init_op"
_VERSION = pb.Message("tensorflow.VersionDef", producer=1, min_consumer=1)
_IDENTIFIERS = {"user": "_generic_user_object", "list": "trackable_list_wrapper",
                "dict": "trackable_dict_wrapper", "tuple": "trackable_tuple_wrapper",
                "signature_map": "signature_map"}


def _m(type_name, **fields):
    return pb.Message("tensorflow." + type_name, **fields)


# --------------------------------------------------------------------------- nests
def structured(value):
    """A Python nest (TensorSpecs, lists, tuples, dicts, None, numbers, strings) as a
    StructuredValue."""
    if value is None:
        return _m("StructuredValue", none_value=_m("NoneValue"))
    if isinstance(value, TensorSpec):
        return _m("StructuredValue", tensor_spec_value=_spec(value.shape, value.dtype,
                                                              value.name))
    if composites.is_composite_spec(value):
        return _m("StructuredValue", type_spec_value=composites.type_spec_proto(
            value, structured, gd.shape_proto, gd.dtype_enum))
    if isinstance(value, bool):
        return _m("StructuredValue", bool_value=value)
    if isinstance(value, (int, np.integer)):
        return _m("StructuredValue", int64_value=int(value))
    if isinstance(value, (float, np.floating)):
        return _m("StructuredValue", float64_value=float(value))
    if isinstance(value, str):
        return _m("StructuredValue", string_value=value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return _m("StructuredValue", named_tuple_value=_m(
            "NamedTupleValue", name=type(value).__name__,
            values=[_m("PairValue", key=k, value=structured(v))
                    for k, v in zip(value._fields, value)]))
    if isinstance(value, tuple):
        return _m("StructuredValue", tuple_value=_m("TupleValue",
                                                    values=[structured(v) for v in value]))
    if isinstance(value, list):
        return _m("StructuredValue", list_value=_m("ListValue",
                                                   values=[structured(v) for v in value]))
    if isinstance(value, dict):
        return _m("StructuredValue", dict_value=_m(
            "DictValue", fields={str(k): structured(v) for k, v in value.items()}))
    raise ValueError(f"cannot save {value!r} (a {type(value).__name__}) in a function's "
                     f"signature")


def _spec(shape, dtype, name=None):
    dims = None if shape is None or getattr(shape, "rank", 0) is None else \
        [d for d in (shape.as_list() if hasattr(shape, "as_list") else shape)]
    fields = {"shape": gd.shape_proto(dims), "dtype": gd.dtype_enum(dtype)}
    if name:
        fields["name"] = name
    return _m("TensorSpecProto", **fields)


def _fullargspec(args, kwonly=()):
    none = _m("StructuredValue", none_value=_m("NoneValue"))
    pairs = [("args", structured(list(args))), ("varargs", none), ("varkw", none),
             ("defaults", none), ("kwonlyargs", structured(list(kwonly))),
             ("kwonlydefaults", none), ("annotations", structured({}))]
    return _m("StructuredValue", named_tuple_value=_m(
        "NamedTupleValue", name="FullArgSpec",
        values=[_m("PairValue", key=k, value=v) for k, v in pairs]))


def _params(function):
    sig = function._signature
    if sig is None:
        return []
    return [p.name for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _function_spec(function):
    if isinstance(function, revive.RestoredFunction):
        spec = function._argspec
        args = list(getattr(spec, "args", None) or [])
        return _m("FunctionSpec", fullargspec=_fullargspec(args), is_method=function._is_method,
                  input_signature=structured(tuple(function.input_signature))
                  if function.input_signature is not None else structured(None))
    sig = function._input_signature
    return _m("FunctionSpec", fullargspec=_fullargspec(_params(function)),
              input_signature=structured(tuple(sig)) if sig is not None else structured(None))


# --------------------------------------------------------------------------- export
class Export:
    """Everything ``save`` writes, built from the object graph's nodes."""

    def __init__(self, nodes, custom_gradients=True):
        self.nodes = nodes
        self.lib = gd._Library(strict=True, first_uid=1, custom_gradients=custom_gradients)
        self.var_ids = {id(as_variable(n.obj)): i for i, n in enumerate(nodes)
                        if n.kind == "variable"}
        self.fnames = {}           # id(ConcreteFunction) -> FunctionDef name
        self.captured = {}         # id(ConcreteFunction) -> [variable node ids]
        self.out_specs = {}        # id(ConcreteFunction) -> flat output (shape, dtype)
        self.concrete = {}         # FunctionDef name -> SavedConcreteFunction
        self.signatures = {}       # key -> (wrapper name, inputs, outputs, var node ids)
        self.effective = {}        # id(ConcreteFunction) -> the trace lowered for it
        # a loaded trace -> the loaded function it belongs to (its parameter names)
        self.owners = {id(c): n.obj for n in nodes
                       if isinstance(n.obj, revive.RestoredFunction)
                       for c in n.obj.concrete_functions}

    def lower(self, cf):
        """The FunctionDef name of a concrete function, lowered once. A concrete function
        loaded from a SavedModel is lowered from the trace of its imported FunctionDef."""
        name = self.fnames.get(id(cf))
        if name is not None:
            return name
        if isinstance(cf, revive.RestoredConcreteFunction):
            return self._lower_restored(cf)
        if getattr(cf, "partitioned", False):
            return self._lower_partitioned(cf)
        orig = cf
        if cf.relaxed and not cf.shape_generic:
            cf = _retrace_at(cf, 17) or cf
        self.effective[id(orig)] = cf
        if cf.relaxed and not cf.shape_generic:
            why = getattr(cf.program, "why_not_generic", None) or "it is not shape-generic"
            raise ValueError(
                f"Cannot save the function `{cf.name}` traced for {_sig_text(cf)}: its "
                f"program does not serve every size of its None dimensions ({why}); "
                f"tf.saved_model.save would write a graph that computes something else "
                f"for other sizes.")
        name = f"__inference_{_identifier(cf.name)}_{self.lib.uid()}"
        state = self.lib.snapshot()
        try:
            fdef, captured = gd.lower_function(_clean(cf), name, self.lib)
        except gd.LoweringError as exc:
            # at the dummy size 2 a None dimension and a static 2 look alike to what the
            # lowering traces itself (a custom gradient's function, on specs of the
            # forward's values): refused there, lowered again from a trace at 17
            again = _retrace_at(cf, 17) if cf is orig and cf.relaxed else None
            got = None
            if again is not None and again.shape_generic:
                self.lib.restore(state)
                try:
                    got = gd.lower_function(_clean(again), name, self.lib)
                except gd.LoweringError:
                    got = None
            if got is None:
                raise ValueError(f"Cannot save the function `{cf.name}` traced for "
                                 f"{_sig_text(cf)}: {exc.args[0]}; TF's graph cannot express "
                                 f"it the same way.") from None
            fdef, captured = got
            cf = self.effective[id(orig)] = again
        ids = []
        for v in captured:
            j = self.var_ids.get(_var_key(v))
            if j is None:
                raise ValueError(
                    f"Tried to export the function `{cf.name}` which references an "
                    f"'untracked' resource: the variable {v.name!r} is not reachable from "
                    f"the object being saved. Track it by assigning it to an attribute of "
                    f"a tf.Module (or of the object saved).")
            ids.append(j)
        self.fnames[id(orig)] = name
        self.captured[id(orig)] = ids
        self.out_specs[id(orig)] = [(a.name, a.type) for a in fdef.signature.output_arg]
        self.concrete[name] = _m(
            "SavedConcreteFunction", bound_inputs=ids,
            canonicalized_input_signature=structured(_canonical(orig)),
            output_signature=structured(_outputs(cf, self.lib.unknown_rank_outputs[name])))
        return name

    def _lower_partitioned(self, cf):
        """A trace made for a RaggedTensorSpec, lowered as TF's graph function: the flat
        components in and out (``composites.flat_trace``)."""
        def lower(view, names):
            lib = gd._Library(strict=True, first_uid=1)
            try:
                fdef, _ = gd.lower_function(view, "f", lib, param_names=names)
            except gd.LoweringError as exc:
                raise ValueError(f"Cannot save the function `{cf.name}` traced for "
                                 f"{_sig_text(cf)}: {exc.args[0]}; TF's graph cannot express "
                                 f"it the same way.") from None
            return pb.encode(fdef), [pb.encode(f) for f in lib.functions]
        flat = composites.flat_trace(cf, lower)
        self.effective[id(cf)] = flat
        name = f"__inference_{_identifier(cf.name)}_{self.lib.uid()}"
        try:
            fdef, captured = gd.lower_function(flat, name, self.lib,
                                               param_names=flat.param_names)
        except gd.LoweringError as exc:
            raise ValueError(f"Cannot save the function `{cf.name}` traced for "
                             f"{_sig_text(cf)}: {exc.args[0]}; TF's graph cannot express it "
                             f"the same way.") from None
        ids = [self._var_id(v, cf.name) for v in captured]
        self.fnames[id(cf)] = name
        self.captured[id(cf)] = ids
        self.out_specs[id(cf)] = [(a.name, a.type) for a in fdef.signature.output_arg]
        self.concrete[name] = _m(
            "SavedConcreteFunction", bound_inputs=ids,
            canonicalized_input_signature=structured(_canonical(cf)),
            output_signature=structured(flat.output_signature))
        return name

    def _lower_restored(self, restored):
        inner = _clean(restored._function().get_concrete_function())
        base = restored.name
        if base.startswith("__inference_"):
            base = base[len("__inference_"):].rpartition("_")[0] or base
        name = f"__inference_{_identifier(base)}_{self.lib.uid()}"
        try:
            fdef, captured = gd.lower_function(inner, name, self.lib)
        except gd.LoweringError as exc:
            raise ValueError(f"Cannot save the loaded function `{restored.name}`: "
                             f"{exc.args[0]}") from None
        ids = [self._var_id(v, base) for v in captured]
        self.fnames[id(restored)] = name
        self.captured[id(restored)] = ids
        self.out_specs[id(restored)] = [(a.name, a.type) for a in fdef.signature.output_arg]
        self.concrete[name] = _m(
            "SavedConcreteFunction", bound_inputs=ids,
            canonicalized_input_signature=structured(restored.structured_input_signature),
            output_signature=structured(restored.structured_outputs))
        return name

    def _var_id(self, v, fname):
        j = self.var_ids.get(_var_key(v))
        if j is None:
            raise ValueError(
                f"Tried to export the function `{fname}` which references an 'untracked' "
                f"resource: the variable {v.name!r} is not reachable from the object being "
                f"saved. Track it by assigning it to an attribute of a tf.Module (or of the "
                f"object saved).")
        return j

    # -------------------------------------------------------------- signatures
    def signature(self, key, cf):
        """A wrapper FunctionDef for signature ``key``: keyword-only inputs named after the
        concrete function's input specs, a StatefulPartitionedCall of its FunctionDef,
        outputs as a dict (``output_0``... for a tensor or a list)."""
        inner = self.lower(cf)
        eff = self.effective.get(id(cf), cf)
        if isinstance(eff, composites.FlatTrace):
            # TF flattens a composite input into its components (x, x_1, ...)
            specs = []
            for sp in nest.flatten(cf.structured_input_signature):
                specs.extend(composites.component_specs(sp)
                             if composites.is_composite_spec(sp) else [sp])
            names = list(eff.param_names)
        else:
            specs = [s for s in nest.flatten(cf.structured_input_signature)]
            names = [s.name if isinstance(s, TensorSpec) else None for s in specs]
        if any(not isinstance(s, TensorSpec) for s in specs) or len(names) != len(specs):
            raise ValueError(f"The signature {key!r}: every input of `{cf.name}` must be a "
                             f"tensor (got {cf.structured_input_signature}).")
        in_names = _unique([gd._sanitize(n or f"input_{i}") for i, n in enumerate(names)])
        restored_out = getattr(cf, "structured_outputs", None) if isinstance(
            cf, revive.RestoredConcreteFunction) else None
        if isinstance(eff, composites.FlatTrace):
            outs = _flat_output_dict(eff.output_signature, eff.flat_outputs, eff.name)
        elif any(composites.is_composite_spec(x) for x in nest.flatten(restored_out)):
            flat_specs = []
            for leaf in nest.flatten(restored_out):
                if composites.is_composite_spec(leaf):
                    flat_specs += [(c.shape, c.dtype)
                                   for c in composites.component_specs(leaf)]
                elif isinstance(leaf, TensorSpec):
                    flat_specs.append((leaf.shape, leaf.dtype))
            outs = _flat_output_dict(restored_out, flat_specs, cf.name)
        else:
            outs = [(okey, [index], spec, None) for okey, index, spec in _output_dict(
                eff, self.lib.unknown_rank_outputs.get(inner, ()))]
        var_ids = self.captured[id(cf)]
        fname = f"__inference_signature_wrapper_{self.lib.uid()}"
        # the wrapper takes its keyword inputs in key order (TF flattens the kwargs dict
        # sorted); its call passes them on in the function's own order
        inputs = sorted(zip(in_names, specs), key=lambda p: p[0])
        uses = [_m("OpDef.ArgDef", name=n, type=gd.dtype_enum(s.dtype)) for n, s in inputs]
        res_names = ["unknown"] + [f"unknown_{k}" for k in range(len(var_ids) - 1)]
        res_names = res_names[:len(var_ids)]
        uses += [_m("OpDef.ArgDef", name=n, type=gd.DT["resource"]) for n in res_names]
        inner_outs = self.out_specs[id(cf)]
        tout = [t for _, t in inner_outs]
        call = _m("NodeDef", name="StatefulPartitionedCall", op="StatefulPartitionedCall",
                  input=in_names + res_names,
                  attr={"f": gd.attr(func=_m("NameAttrList", name=inner)),
                        "Tin": gd.attr(list=gd.attr_list(
                            type=[gd.dtype_enum(s.dtype) for s in specs] +
                            [gd.DT["resource"]] * len(res_names))),
                        "Tout": gd.attr(list=gd.attr_list(type=tout)),
                        "_read_only_resource_inputs": gd.attr(list=gd.attr_list())})
        nodes = [call]
        rets, out_args, ret_info = {}, [], []
        k = 0
        for okey, indices, spec, composite in outs:
            parts = []
            for index in indices:
                ident = "Identity" if k == 0 else f"Identity_{k}"
                k += 1
                nodes.append(_m("NodeDef", name=ident, op="Identity",
                                input=[f"StatefulPartitionedCall:output:{index}", "^NoOp"],
                                attr={"T": gd.attr(type=tout[index])}))
                rets[ident.lower()] = f"{ident}:output:0"
                out_args.append(_m("OpDef.ArgDef", name=ident.lower(), type=tout[index]))
                parts.append(tout[index])
            if composite is None:
                ret_info.append((okey, parts[0], spec))
            else:
                ret_info.append((okey, parts, (spec, composite)))
        nodes.append(_m("NodeDef", name="NoOp", op="NoOp", input=["^StatefulPartitionedCall"]))
        self.lib.functions.append(_m(
            "FunctionDef",
            signature=_m("OpDef", name=fname, input_arg=uses, output_arg=out_args,
                         is_stateful=True, control_output=["StatefulPartitionedCall"]),
            node_def=nodes, ret=rets, control_ret={"StatefulPartitionedCall":
                                                   "StatefulPartitionedCall"},
            attr={"_construction_context": gd.attr(s=b"kEagerRuntime")},
            arg_attr={i: _m("FunctionDef.ArgAttrs", attr={
                "_user_specified_name": gd.attr(s=n.encode())})
                for i, (n, _) in enumerate(inputs)}))
        in_sig = ((), {n: TensorSpec(s.shape, s.dtype, n) for n, s in inputs})
        out_sig = {okey: TensorSpec(spec[0], spec[1], okey) if composite is None else composite
                   for okey, _, spec, composite in outs}
        self.concrete[fname] = _m(
            "SavedConcreteFunction", bound_inputs=var_ids,
            canonicalized_input_signature=structured(in_sig),
            output_signature=structured(out_sig))
        self.signatures[key] = (fname, inputs, ret_info, var_ids)
        return fname

    # -------------------------------------------------------------- the object graph
    def object_graph(self):
        """The SavedObjectGraph, and the checkpoint's TrackableObjectGraph over the same
        nodes with the variables' tensors ``[(key, dtype name, shape, value)]``."""
        saved, tracked, tensors = [], [], []
        for _i, node in enumerate(self.nodes):
            refs = [_m("TrackableObjectGraph.TrackableObject.ObjectReference", node_id=j,
                       local_name=n) for n, j in node.children]
            fields = {"children": refs}
            attrs = []
            kind = node.kind
            if kind == "variable":
                v = node.obj
                fields["variable"] = _m("SavedVariable", dtype=gd.dtype_enum(v.dtype),
                                        shape=gd.shape_proto(tuple(v.shape.as_list())),
                                        trainable=bool(v.trainable),
                                        name=v.name.split(":")[0])
                key = checkpoint_key(node.path)
                attrs.append(_m("TrackableObjectGraph.TrackableObject.SerializedTensor",
                                name=VALUE, full_name=full_name(v), checkpoint_key=key))
                value = np.asarray(v._value)
                tensors.append((key, v.dtype.name, tuple(value.shape), value))
            elif kind == "function":
                fields["function"] = _m(
                    "SavedFunction", concrete_functions=[self.lower(c) for c in
                                                         concrete_functions(node.obj)],
                    function_spec=_function_spec(node.obj))
                fields["dependencies"] = refs
            elif kind == "concrete":
                fields["bare_concrete_function"] = self._bare(node)
            else:
                fields["user_object"] = _m("SavedUserObject", identifier=_IDENTIFIERS[kind],
                                           version=_VERSION)
            saved.append(_m("SavedObject", **fields))
            tracked.append(_m("TrackableObjectGraph.TrackableObject", children=refs,
                              attributes=attrs))
        has = _has_values(self.nodes, tracked)
        for t, h in zip(tracked, has):
            t.has_checkpoint_values = pb.Message("google.protobuf.BoolValue", value=h)
        for _, fname, specs, n_res, binds in self.lib.registered:
            # a custom gradient's function, as TF lists it: (op, *result_grads) -> one
            # gradient per IdentityN input (None for the results); bound to what it
            # captures: a variable's node, or a `captured_tensor` node (after the object
            # graph's, which the checkpoint does not list) naming the forward's tensor
            args = tuple(TensorSpec(sp.shape, sp.dtype, f"result_grads_{k}")
                         for k, sp in enumerate(specs))
            outs = [None] * n_res + [TensorSpec(sp.shape, sp.dtype, f"tensor_{n_res + i}")
                                     for i, sp in enumerate(specs[n_res:])]
            bound = []
            for b in binds:
                if b[0] == "variable":
                    bound.append(self._var_id(b[1], fname))
                else:
                    bound.append(len(saved))
                    saved.append(_m("SavedObject", captured_tensor=_m(
                        "CapturedTensor", name=b[2], concrete_function=b[1])))
            self.concrete[fname] = _m(
                "SavedConcreteFunction", bound_inputs=bound,
                canonicalized_input_signature=structured(((None,) + args, {})),
                output_signature=structured(outs))
        graph = _m("SavedObjectGraph", nodes=saved, concrete_functions=self.concrete)
        ckpt = _m("TrackableObjectGraph", nodes=tracked)
        return graph, ckpt, tensors

    def _bare(self, node):
        cf = node.obj
        if node.signature is not None:
            name = self.signature(node.signature, cf)
            keys = [n for n, _ in self.signatures[node.signature][1]]
            spec = _m("FunctionSpec", fullargspec=_fullargspec((), keys),
                      input_signature=structured(None))
            return _m("SavedBareConcreteFunction", concrete_function_name=name,
                      argument_keywords=keys, allowed_positional_arguments=1 if len(keys) == 1
                      else 0, function_spec=spec)
        name = self.lower(cf)
        if isinstance(cf, revive.RestoredConcreteFunction):
            owner = self.owners.get(id(cf))
            params = owner._arg_names() if owner is not None else [
                s.name for s in nest.flatten(cf.structured_input_signature[0])
                if isinstance(s, TensorSpec) and s.name]
        else:
            params = _params(cf._function)
        return _m("SavedBareConcreteFunction", concrete_function_name=name,
                  argument_keywords=params, allowed_positional_arguments=len(params),
                  function_spec=_m("FunctionSpec", fullargspec=_fullargspec(params),
                                   input_signature=structured(None)))

    # -------------------------------------------------------------- the outer graph
    def meta_graph(self, graph, ckpt_bytes):
        """The MetaGraphDef: outer nodes, library, saver_def, signature_def, collections."""
        nodes = []
        handles = {}
        used = set()
        for i, node in enumerate(self.nodes):
            if node.kind != "variable":
                continue
            v = node.obj
            name = _unique_name(v.name.split(":")[0], used)
            handles[i] = name
            nodes.append(_m("NodeDef", name=name, op="VarHandleOp", attr={
                "shared_name": gd.attr(s=name.encode()),
                "dtype": gd.attr(type=gd.dtype_enum(v.dtype)),
                "shape": gd.attr(shape=gd.shape_proto(tuple(v.shape.as_list())))}))
        sig_defs = {}
        n_calls = [0]

        def call_name():
            k = n_calls[0]
            n_calls[0] += 1
            return "StatefulPartitionedCall" if k == 0 else f"StatefulPartitionedCall_{k}"

        for key in sorted(self.signatures):
            fname, inputs, outs, var_ids = self.signatures[key]
            phs = []
            for n, spec in inputs:
                ph = _unique_name(f"{key}_{n}", used)
                nodes.append(_m("NodeDef", name=ph, op="Placeholder", attr={
                    "dtype": gd.attr(type=gd.dtype_enum(spec.dtype)),
                    "shape": gd.attr(shape=gd.shape_proto(_dims(spec.shape)))}))
                phs.append((n, ph, spec))
            cname = call_name()
            tin = [gd.dtype_enum(s.dtype) for _, _, s in phs] + [gd.DT["resource"]] * len(
                var_ids)
            nodes.append(_m("NodeDef", name=cname, op="StatefulPartitionedCall",
                            input=[p for _, p, _ in phs] + [handles[j] for j in var_ids],
                            attr={"f": gd.attr(func=_m("NameAttrList", name=fname)),
                                  "Tin": gd.attr(list=gd.attr_list(type=tin)),
                                  "Tout": gd.attr(list=gd.attr_list(type=[
                                      x for _, t, _ in outs
                                      for x in (t if isinstance(t, list) else [t])])),
                                  "_read_only_resource_inputs": gd.attr(
                                      list=gd.attr_list())}))
            sig_defs[key] = _m(
                "SignatureDef",
                inputs={n: _m("TensorInfo", name=f"{p}:0", dtype=gd.dtype_enum(s.dtype),
                              tensor_shape=gd.shape_proto(_dims(s.shape)))
                        for n, p, s in phs},
                outputs=_output_infos(cname, outs),
                method_name=PREDICT)
        nodes.append(_m("NodeDef", name="NoOp", op="NoOp"))
        sig_defs[INIT_OP_KEY] = _m("SignatureDef", outputs={INIT_OP_KEY: _m(
            "TensorInfo", name="NoOp", tensor_shape=_m("TensorShapeProto", unknown_rank=True))})
        # the saver: restore (and save) functions of the variables, by checkpoint key
        var_nodes = [i for i, n in enumerate(self.nodes) if n.kind == "variable"]
        keys = [checkpoint_key(self.nodes[i].path) for i in var_nodes]
        dtypes = [gd.dtype_enum(self.nodes[i].obj.dtype) for i in var_nodes]
        nodes.append(_m("NodeDef", name="Const", op="Const", attr={
            "value": gd.attr(tensor=gd.tensor_proto(np.array(ckpt_bytes, object))),
            "dtype": gd.attr(type=gd.DT["string"])}))
        nodes.append(_m("NodeDef", name="saver_filename", op="Placeholder", attr={
            "dtype": gd.attr(type=gd.DT["string"]), "shape": gd.attr(shape=gd.shape_proto(()))}))
        save_fn = self._save_function(keys, dtypes)
        restore_fn = self._restore_function(keys, dtypes)
        save_call, restore_call = call_name(), call_name()
        res = [handles[i] for i in var_nodes]
        string = gd.DT["string"]
        nodes.append(_m("NodeDef", name=save_call, op="StatefulPartitionedCall",
                        input=["saver_filename"] + res + ["Const"],
                        attr={"f": gd.attr(func=_m("NameAttrList", name=save_fn)),
                              "Tin": gd.attr(list=gd.attr_list(
                                  type=[string] + [gd.DT["resource"]] * len(res) + [string])),
                              "Tout": gd.attr(list=gd.attr_list(type=[string])),
                              "_read_only_resource_inputs": gd.attr(list=gd.attr_list())}))
        nodes.append(_m("NodeDef", name=restore_call, op="StatefulPartitionedCall",
                        input=["saver_filename"] + res,
                        attr={"f": gd.attr(func=_m("NameAttrList", name=restore_fn)),
                              "Tin": gd.attr(list=gd.attr_list(
                                  type=[string] + [gd.DT["resource"]] * len(res))),
                              "Tout": gd.attr(list=gd.attr_list(type=[string])),
                              "_read_only_resource_inputs": gd.attr(list=gd.attr_list())}))
        saver = _m("SaverDef", filename_tensor_name="saver_filename:0",
                   save_tensor_name=f"{save_call}:0", restore_op_name=restore_call, version=2)
        graph_def = _m("GraphDef", node=nodes,
                       library=_m("FunctionDefLibrary", function=self.lib.functions,
                                  registered_gradients=[
                                      _m("RegisteredGradient", gradient_func=fname,
                                         registered_op_type=op_type)
                                      for op_type, fname, *_ in self.lib.registered]),
                       versions=_m("VersionDef", producer=2474, min_consumer=12))
        info = _m("MetaGraphDef.MetaInfoDef", tags=["serve"], tensorflow_version=TF_VERSION,
                  tensorflow_git_version="tapeflow", stripped_default_attrs=True)
        return _m("MetaGraphDef", meta_info_def=info, graph_def=graph_def, saver_def=saver,
                  collection_def={"saved_model_main_op": _m(
                      "CollectionDef", node_list=_m("CollectionDef.NodeList",
                                                    value=["NoOp"]))},
                  signature_def=sig_defs, object_graph_def=graph)

    def _saver_function(self, tag, keys, n_vars, body):
        fname = f"__inference__traced_{tag}_{self.lib.uid()}"
        args = [_m("OpDef.ArgDef", name="file_prefix", type=gd.DT["string"])]
        res = [f"{tag}_resource_{k}" for k in range(n_vars)]
        args += [_m("OpDef.ArgDef", name=r, type=gd.DT["resource"]) for r in res]
        names = np.array([k.encode() for k in keys], object)
        slices = np.array([b""] * len(keys), object)
        nodes = [
            _m("NodeDef", name=f"{tag}/tensor_names", op="Const", attr={
                "value": gd.attr(tensor=gd.tensor_proto(names)),
                "dtype": gd.attr(type=gd.DT["string"])}),
            _m("NodeDef", name=f"{tag}/shape_and_slices", op="Const", attr={
                "value": gd.attr(tensor=gd.tensor_proto(slices)),
                "dtype": gd.attr(type=gd.DT["string"])})]
        extra_args, effects = body(nodes, res)
        args += extra_args
        nodes.append(_m("NodeDef", name="Identity", op="Identity",
                        input=["file_prefix"] + [f"^{e}" for e in effects],
                        attr={"T": gd.attr(type=gd.DT["string"])}))
        self.lib.functions.append(_m(
            "FunctionDef",
            signature=_m("OpDef", name=fname, input_arg=args,
                         output_arg=[_m("OpDef.ArgDef", name="identity",
                                        type=gd.DT["string"])],
                         is_stateful=True, control_output=sorted(effects)),
            node_def=nodes, ret={"identity": "Identity:output:0"},
            control_ret={e: e for e in effects},
            attr={"_construction_context": gd.attr(s=b"kEagerRuntime")}))
        return fname

    def _restore_function(self, keys, dtypes):
        def body(nodes, res):
            effects = []
            if keys:
                nodes.append(_m("NodeDef", name="RestoreV2", op="RestoreV2",
                                input=["file_prefix", "restore/tensor_names:output:0",
                                       "restore/shape_and_slices:output:0"],
                                attr={"dtypes": gd.attr(list=gd.attr_list(type=dtypes))}))
            for k, (r, dt) in enumerate(zip(res, dtypes)):
                name = "AssignVariableOp" if k == 0 else f"AssignVariableOp_{k}"
                nodes.append(_m("NodeDef", name=name, op="AssignVariableOp",
                                input=[r, f"RestoreV2:tensors:{k}"],
                                attr={"dtype": gd.attr(type=dt)}))
                effects.append(name)
            return [], effects
        return self._saver_function("restore", keys, len(keys), body)

    def _save_function(self, keys, dtypes):
        keys = keys + [OBJECT_GRAPH_KEY]

        def body(nodes, res):
            reads = []
            for k, r in enumerate(res):
                name = "ReadVariableOp" if k == 0 else f"ReadVariableOp_{k}"
                nodes.append(_m("NodeDef", name=name, op="ReadVariableOp", input=[r],
                                attr={"dtype": gd.attr(type=dtypes[k])}))
                reads.append(f"{name}:value:0")
            nodes.append(_m("NodeDef", name="SaveV2", op="SaveV2",
                            input=["file_prefix", "save/tensor_names:output:0",
                                   "save/shape_and_slices:output:0"] + reads +
                            ["object_graph"],
                            attr={"dtypes": gd.attr(list=gd.attr_list(
                                type=list(dtypes) + [gd.DT["string"]]))}))
            effects = ["SaveV2"] + [r.split(":")[0] for r in reads]
            return [_m("OpDef.ArgDef", name="object_graph", type=gd.DT["string"])], effects
        return self._saver_function("save", keys, len(dtypes), body)


# --------------------------------------------------------------------------- helpers
_retrace_at = gd.retrace_at


def _clean(cf):
    """``cf``, or when its program holds guards a fresh trace of the same signature that
    holds none. (A function first called under a GradientTape records the path its
    branches took, with a guard: that program serves the tape, not a graph.) A guard the
    fresh trace still holds is the user's (a Python read of a tensor): lowering refuses it.
    """
    if not cf.program.n_guards:
        return cf
    from ..function.polymorphic import Function
    old = cf._function
    fresh = Function(old._python_function, old._input_signature, old._autograph,
                     old._jit_compile, old._reduce_retracing, old._name)
    args, kwargs = cf.structured_input_signature
    try:
        if old._input_signature is not None:
            new = fresh.get_concrete_function()
        else:
            new = fresh.get_concrete_function(*args, **kwargs)
    except Exception:  # noqa: BLE001 - the original trace is lowered (and refused)
        return cf
    if isinstance(new, type(cf)) and not new.program.n_guards:
        return new
    return cf


def _has_values(nodes, tracked):
    has = [bool(t.attributes) for t in tracked]
    changed = True
    while changed:
        changed = False
        for i, node in enumerate(nodes):
            if not has[i] and any(has[j] for _, j in node.children):
                has[i] = changed = True
    return has


def _dims(shape):
    if shape is None or getattr(shape, "rank", 0) is None:
        return None
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


def _unique(names):
    out, used = [], set()
    for n in names:
        out.append(_unique_name(n, used))
    return out


def _unique_name(name, used):
    k, cand = 0, name
    while cand in used:
        k += 1
        cand = f"{name}_{k}"
    used.add(cand)
    return cand


def _var_name(v):
    return v.name.split(":")[0]


def _sig_text(cf):
    args, kwargs = cf.structured_input_signature
    return ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]) \
        or "no arguments"


def _var_key(v):
    """The key of a captured variable in ``var_ids``: the Variable a wrapper stands for."""
    var = as_variable(v)
    return id(v if var is None else var)


def _canonical(cf):
    """``(args, kwargs)`` of the trace: TensorSpecs named after their parameters, Python
    values as traced; a variable argument as its spec (TF: a resource spec)."""
    def one(x):
        if as_variable(x) is not None:
            x = as_variable(x)
            return TensorSpec(x.shape, x.dtype, x.name.split(":")[0])
        return x
    args, kwargs = cf.structured_input_signature
    return (tuple(nest.map_structure(one, list(args))) if args else (),
            nest.map_structure(one, dict(kwargs)) if kwargs else {})


def _flat_index(out):
    flat = [t for t in nest.flatten(out) if t is not None and hasattr(t, "dtype")]
    return {id(t): k for k, t in enumerate(flat)}


def _outputs(cf, unknown_rank=()):
    """The output structure with a TensorSpec per tensor (``unknown_rank``: the flat
    outputs of unknown rank, from a ``TensorSpec(None)`` argument)."""
    out = cf.structured_outputs
    index = _flat_index(out)

    def one(t):
        if t is None or isinstance(t, (int, float, str, bool)):
            return t
        if _is_composite(t):
            raise ValueError(f"Cannot save `{cf.name}`: it returns a composite tensor "
                             f"({type(t).__name__}).")
        if index.get(id(t)) in unknown_rank:
            return TensorSpec(None, t.dtype)
        return TensorSpec(t.shape, t.dtype)
    return nest.map_structure(one, out) if out is not None else None


def _output_dict(cf, unknown_rank=()):
    """A signature's outputs: ``[(key, index among the function's flat outputs, (shape,
    dtype))]`` in key order (a dict's own keys; ``output_<k>`` for a tensor or a list)."""
    out = cf.structured_outputs
    flat = [t for t in nest.flatten(out) if t is not None and hasattr(t, "dtype")]
    index = {id(t): k for k, t in enumerate(flat)}
    if isinstance(out, dict):
        items = []
        for key in sorted(out):
            t = out[key]
            if t is None or not hasattr(t, "dtype"):
                raise ValueError(f"The signature output {key!r} of `{cf.name}` must be a "
                                 f"tensor, got {t!r}.")
            items.append((str(key), index[id(t)], (_shape(t, index, unknown_rank), t.dtype)))
        return items
    if out is None:
        return []
    seq = out if isinstance(out, (list, tuple)) else [out]
    items = []
    for k, t in enumerate(seq):
        if t is None or not hasattr(t, "dtype"):
            raise ValueError(f"A signature function must return tensors or a dict of "
                             f"tensors; `{cf.name}` returns {out!r}.")
        items.append((f"output_{k}", index[id(t)],
                      (_shape(t, index, unknown_rank), t.dtype)))
    return sorted(items)


def _flat_output_dict(out, specs, fname):
    """A signature's outputs when some are composites (``out``: the output nest of specs,
    ``specs``: each flat output's ``(shape, dtype)``): ``[(key, [flat output indices],
    (shape, dtype) or None, composite spec or None)]`` in key order; a composite takes one
    index per component."""
    if isinstance(out, dict):
        keyed = [(str(k), out[k]) for k in sorted(out)]
        order = {id(v): i for i, v in enumerate(nest.flatten(out))}
    elif out is None:
        return []
    else:
        seq = out if isinstance(out, (list, tuple)) else [out]
        keyed = [(f"output_{k}", v) for k, v in enumerate(seq)]
    leaves = nest.flatten(out)
    starts, k = [], 0
    for leaf in leaves:
        starts.append(k)
        k += composites.n_components(leaf) if composites.is_composite_spec(leaf) else (
            0 if leaf is None else 1)
    items = []
    for key, v in keyed:
        if v is None:
            raise ValueError(f"The signature output {key!r} of `{fname}` must be a "
                             f"tensor, got None.")
        i = order[id(v)] if isinstance(out, dict) else next(
            j for j, leaf in enumerate(leaves) if leaf is v)
        if composites.is_composite_spec(v):
            n = composites.n_components(v)
            items.append((key, list(range(starts[i], starts[i] + n)), None, v))
        else:
            items.append((key, [starts[i]], specs[starts[i]], None))
    return sorted(items, key=lambda item: item[0])


def _output_infos(cname, outs):
    """A SignatureDef's outputs: a TensorInfo per output (``<call>:<k>``), a composite's
    as ``composite_tensor`` (its TypeSpecProto and one TensorInfo per component)."""
    infos, k = {}, 0
    for okey, t, spec in outs:
        if isinstance(t, list):          # a composite: (its (shape, dtype)s), its spec
            composite = spec[1]
            comps = []
            for c, dtype in zip(composites.component_specs(composite), t):
                comps.append(_m("TensorInfo", name=f"{cname}:{k}", dtype=dtype,
                                tensor_shape=gd.shape_proto(_dims(c.shape))))
                k += 1
            infos[okey] = _m("TensorInfo", composite_tensor=_m(
                "TensorInfo.CompositeTensor", type_spec=composites.type_spec_proto(
                    composite, structured, gd.shape_proto, gd.dtype_enum), components=comps))
        else:
            infos[okey] = _m("TensorInfo", name=f"{cname}:{k}", dtype=t,
                             tensor_shape=gd.shape_proto(_dims(spec[0])))
            k += 1
    return infos


def _shape(t, index, unknown_rank):
    return None if index[id(t)] in unknown_rank else t.shape


def build(nodes, custom_gradients=True):
    """``(Export, SavedObjectGraph, checkpoint object graph, variable tensors)``."""
    ex = Export(nodes, custom_gradients)
    graph, ckpt, tensors = ex.object_graph()
    return ex, graph, ckpt, tensors
