"""``python -m tapeflow.saved_model``: TF's ``saved_model_cli`` ``show`` and ``run``, printing
as TF 2.21's tool does, without TensorFlow.

    python -m tapeflow.saved_model show --dir D [--tag_set serve [--signature_def K]] [--all]
    python -m tapeflow.saved_model run --dir D --tag_set serve --signature_def K \\
        --input_exprs 'x=[[1.0,2.0]];y=3.0'

(``show`` prints the op set sorted; TF prints a Python set, in an order that varies.)
"""
import argparse
import ast
import os
import sys

from .. import _protobuf as pb

_DT = {0: "DT_INVALID", 1: "DT_FLOAT", 2: "DT_DOUBLE", 3: "DT_INT32", 4: "DT_UINT8",
       5: "DT_INT16", 6: "DT_INT8", 7: "DT_STRING", 8: "DT_COMPLEX64", 9: "DT_INT64",
       10: "DT_BOOL", 14: "DT_BFLOAT16", 17: "DT_UINT16", 18: "DT_COMPLEX128", 19: "DT_HALF",
       20: "DT_RESOURCE", 21: "DT_VARIANT", 22: "DT_UINT32", 23: "DT_UINT64"}

_NUMPY = {1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
          7: object, 8: "complex64", 9: "int64", 10: "bool", 17: "uint16",
          18: "complex128", 19: "float16", 22: "uint32", 23: "uint64"}


def _read(directory):
    path = os.path.join(directory, "saved_model.pb")
    with open(path, "rb") as f:
        data = f.read()
    try:
        return pb.decode("tensorflow.SavedModel", data)
    except Exception as e:  # noqa: BLE001 - any decoding failure is a corrupt file
        raise OSError(f"Cannot parse file {path.encode()!r}: {e}") from None


def _tags(mg):
    return list(mg.meta_info_def.tags)


def _meta_graph(saved, tag_set):
    want = sorted(tag_set.split(","))
    for mg in saved.meta_graphs:
        if sorted(_tags(mg)) == want:
            return mg
    raise RuntimeError(f"MetaGraphDef associated with tag-set {tag_set} could not be found "
                       "in SavedModel")


def _shape(info):
    shape = info.tensor_shape
    if shape.unknown_rank:
        return "unknown_rank"
    dims = [d.size for d in shape.dim]
    if len(dims) == 1:
        return f"({dims[0]})"
    return "(" + ", ".join(str(d) for d in dims) + ")"


def _tensor_info(out, key, kind, info, indent):
    pad = " " * indent
    out.append(f"{pad}{kind}['{key}'] tensor_info:")
    out.append(f"{pad}    dtype: {_DT.get(info.dtype, info.dtype)}")
    out.append(f"{pad}    shape: {_shape(info)}")
    out.append(f"{pad}    name: {info.name}")


def _signature_lines(sig, indent=0):
    pad = " " * indent
    out = [f"{pad}The given SavedModel SignatureDef contains the following input(s):"]
    for k in sorted(sig.inputs):
        _tensor_info(out, k, "inputs", sig.inputs[k], indent + 2)
    out.append(f"{pad}The given SavedModel SignatureDef contains the following output(s):")
    for k in sorted(sig.outputs):
        _tensor_info(out, k, "outputs", sig.outputs[k], indent + 2)
    out.append(f"{pad}Method name is: {sig.method_name}")
    return out


def _ops(mg):
    """The op types the graph uses: its nodes' and those of the functions its nodes reach
    (through function-valued attrs), as TF's ``ops_used_by_graph_def``."""
    library = {f.signature.name: f for f in mg.graph_def.library.function}
    ops, seen, todo = set(), set(), [list(mg.graph_def.node)]
    while todo:
        for node in todo.pop():
            ops.add(node.op)
            if node.op in library and node.op not in seen:
                seen.add(node.op)
                todo.append(list(library[node.op].node_def))
            for attr in node.attr.values():
                names = [attr.func.name] if attr.has("func") else []
                if attr.has("list"):
                    names += [f.name for f in attr.list.func]
                for name in names:
                    if name in library and name not in seen:
                        seen.add(name)
                        todo.append(list(library[name].node_def))
    return ops


def _functions(directory):
    """TF's ``Concrete Functions:`` section: each ``tf.function`` of the loaded root, sorted by
    name, with its traces' positional arguments."""
    from . import loader, revive

    root = loader.load(directory)
    out = ["", "Concrete Functions:"]
    first = True
    for name in sorted(vars(root)):
        fn = getattr(root, name)
        if not isinstance(fn, revive.RestoredFunction):
            continue
        if not first:
            out.append("")
        first = False
        out.append(f"  Function Name: '{name}'")
        for i, cf in enumerate(fn.concrete_functions, 1):
            out.append(f"    Option #{i}")
            out.append("      Callable with:")
            args, kwargs = cf.structured_input_signature
            for j, a in enumerate(args, 1):
                out.append(f"        Argument #{j}")
                out.append(f"          {getattr(a, 'name', None)}: {a!r}")
            for j, k in enumerate(sorted(kwargs), 1):
                out.append(f"        Named Argument #{j}")
                out.append(f"          {k}")
    return out


def show(directory, tag_set=None, signature_def=None, show_all=False):
    """The text ``saved_model_cli show`` prints for these arguments."""
    saved = _read(directory)
    if show_all:
        out = []
        for mg in saved.meta_graphs:
            tags = _tags(mg)
            out.append("")
            out.append(f"MetaGraphDef with tag-set: '{', '.join(tags)}' contains the following "
                       "SignatureDefs:")
            for key in sorted(mg.signature_def):
                out.append("")
                out.append(f"signature_def['{key}']:")
                out += _signature_lines(mg.signature_def[key], 2)
            ops = ", ".join(repr(o) for o in sorted(_ops(mg)))
            out.append(f"The MetaGraph with tag set {tags} contains the following ops: "
                       f"{{{ops}}}")
        out += _functions(directory)
        return "\n".join(out) + "\n"
    if tag_set is None:
        out = ["The given SavedModel contains the following tag-sets:"]
        out += [repr(", ".join(_tags(mg))) for mg in saved.meta_graphs]
        return "\n".join(out) + "\n"
    mg = _meta_graph(saved, tag_set)
    if signature_def is None:
        out = ["The given SavedModel MetaGraphDef contains SignatureDefs with the following "
               "keys:"]
        out += [f'SignatureDef key: "{k}"' for k in sorted(mg.signature_def)]
        return "\n".join(out) + "\n"
    if signature_def not in mg.signature_def:
        raise ValueError(f"Could not find signature \"{signature_def}\". Please choose from: "
                         f"{', '.join(sorted(mg.signature_def))}")
    return "\n".join(_signature_lines(mg.signature_def[signature_def])) + "\n"


def _parse_exprs(text):
    out = {}
    for part in filter(None, (p.strip() for p in (text or "").split(";"))):
        key, sep, expr = part.partition("=")
        if not sep:
            raise RuntimeError(f'--input_exprs "{part}" format is incorrect. Please follow '
                               '"<input_key>=<python expression>"')
        out[key.strip()] = ast.literal_eval(expr.strip())
    return out


def run(directory, tag_set, signature_def, input_exprs):
    """What ``saved_model_cli run`` prints: ``Result for output key K:`` and the NumPy value
    of each output, keys sorted. Inputs are Python literals converted to each input's dtype.

    Raises:
        ValueError: an unknown signature key or input key.
    """
    import numpy as np

    from . import loader

    saved = _read(directory)
    mg = _meta_graph(saved, tag_set)
    if signature_def not in mg.signature_def:
        raise ValueError(f"Could not find signature \"{signature_def}\". Please choose from: "
                         f"{', '.join(sorted(mg.signature_def))}")
    sig = mg.signature_def[signature_def]
    values = _parse_exprs(input_exprs)
    for k in values:
        if k not in sig.inputs:
            raise ValueError(f'"{k}" is not a valid input key. Please choose from '
                             f'{", ".join(repr(i) for i in sorted(sig.inputs))}, or use '
                             "--show option.")
    feeds = {k: np.asarray(v, dtype=_NUMPY.get(sig.inputs[k].dtype))
             for k, v in values.items()}
    fn = loader.load(directory).signatures[signature_def]
    result = fn(**feeds)
    out = []
    for k in sorted(result):
        out.append(f"Result for output key {k}:")
        out.append(str(np.asarray(result[k])))
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tapeflow.saved_model",
                                     description="saved_model_cli's show and run, on NumPy.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_show = sub.add_parser("show")
    p_show.add_argument("--dir", required=True)
    p_show.add_argument("--all", action="store_true")
    p_show.add_argument("--tag_set")
    p_show.add_argument("--signature_def")
    p_run = sub.add_parser("run")
    p_run.add_argument("--dir", required=True)
    p_run.add_argument("--tag_set", required=True)
    p_run.add_argument("--signature_def", required=True)
    p_run.add_argument("--input_exprs", default="")
    args = parser.parse_args(argv)
    if args.command == "show":
        text = show(args.dir, args.tag_set, args.signature_def, args.all)
    else:
        text = run(args.dir, args.tag_set, args.signature_def, args.input_exprs)
    sys.stdout.write(text)
    return 0
