"""``model.summary()``: Keras 3's table, as its ``rich`` renderer prints it on a plain
(non-tty) terminal: the same column widths, word wrapping and box-drawing characters."""
import re
import shutil
import sys

__all__ = ["print_summary"]

_WORD = re.compile(r"\s*\S+\s*")


def _ratio_reduce(total, ratios, maximums, values):
    """rich's ``ratio_reduce``: take ``total`` away from ``values`` in proportion."""
    ratios = [r if m else 0 for r, m in zip(ratios, maximums, strict=True)]
    total_ratio = sum(ratios)
    if not total_ratio:
        return list(values)
    out = []
    for ratio, maximum, value in zip(ratios, maximums, values, strict=True):
        if ratio and total_ratio > 0:
            distributed = min(maximum, round(ratio * total / total_ratio))
            out.append(value - distributed)
            total -= distributed
            total_ratio -= ratio
        else:
            out.append(value)
    return out


def _wrap(text, width):
    """rich's word wrapping for a table cell: words move to the next line when they do not
    fit, and a word longer than the cell is cut with an ellipsis (overflow='ellipsis')."""
    lines, line = [], ""
    for word in _WORD.findall(text):
        if len(line) + len(word.rstrip()) <= width or not line:
            line += word
        else:
            lines.append(line)
            line = word
    lines.append(line)
    out = []
    for part in lines:
        part = part.rstrip()
        out.append(part if len(part) <= width else part[:width - 1] + "…")
    return out


def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _output_shape(layer):
    shape = getattr(layer, "_output_shape", None)
    if not layer.built or shape is None:
        return "?"
    shapes = getattr(layer, "_output_shapes", None)
    if shapes and len(shapes) > 1:  # Keras prints the list of a multi-output layer's shapes
        return "[" + ", ".join(_shape_text(s) for s in shapes) + "]"
    return _shape_text(shape)


def _readable_size(n):
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n / 1024 < 1:
            return f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} PB"


def _count(weights):
    """The number of scalars in ``weights`` and their size in bytes (from their dtypes)."""
    counts = [(w.shape.num_elements(), w.dtype.size) for w in weights]
    return sum(n for n, _ in counts), sum(n * size for n, size in counts)


def _functional_layout(model):
    """Keras's ``model._operations`` order (by depth from the outputs, then by discovery),
    whether the graph is a chain (Keras's ``sequential_like``) and, per layer, the tensors
    it was called on ("Connected to")."""
    from .._symbolic import KerasTensor, flatten

    def node_key(kt):  # the call that made kt; an Input is a node of its own
        return id(kt._node) if kt._node is not None else ("input", id(kt._input_layer))

    def source(kt):
        return kt._input_layer if kt._node is None else kt._node.layer

    order, inbound, node_inputs, node_layer = {}, {}, {}, {}

    def visit(kt):
        layer = source(kt)
        if layer is None:
            return
        order.setdefault(id(layer), (len(order), layer))
        key = node_key(kt)
        if key in node_inputs:
            return
        args = [] if kt._node is None else kt._node.inputs
        node_inputs[key], node_layer[key] = args, layer
        inbound.setdefault(id(layer), []).extend(args)
        for arg in args:
            visit(arg)

    outputs = [kt for kt in flatten(model._fn_outputs) if type(kt) is KerasTensor]
    for kt in outputs:
        visit(kt)
    depth = {}

    def walk(kt, d):  # a node's depth: its longest path to an output
        key = node_key(kt)
        if depth.get(key, -1) >= d:
            return
        depth[key] = d
        for arg in node_inputs[key]:
            walk(arg, d + 1)

    for kt in outputs:
        walk(kt, 0)
    layer_depth = {}
    for key, d in depth.items():
        lid = id(node_layer[key])
        layer_depth[lid] = max(layer_depth.get(lid, 0), d)
    layers = sorted((layer for _, layer in order.values()),
                    key=lambda layer: (-layer_depth.get(id(layer), 0), order[id(layer)][0]))
    per_depth = {}
    for d in depth.values():
        per_depth[d] = per_depth.get(d, 0) + 1
    calls = {}
    for key in node_inputs:
        calls[id(node_layer[key])] = calls.get(id(node_layer[key]), 0) + 1
    sequential_like = (all(n == 1 for n in per_depth.values())
                       and all(len(args) <= 1 for args in node_inputs.values())
                       and all(n == 1 for n in calls.values()))
    connections = {}
    for layer in layers:
        names = [f"{source(kt).name}[0][{kt._index or 0}]" for kt in inbound.get(id(layer), ())]
        connections[id(layer)] = ", ".join(names) or "-"
    return layers, sequential_like, connections


def _layer_range(layers, layer_range):
    """Keras's ``get_layer_index_bound_by_layer_name``: ``[first, last + 1]``."""
    if layer_range is None:
        return 0, len(layers)
    if len(layer_range) != 2:
        raise ValueError("layer_range must be a list or tuple of length 2. Received: "
                         f"layer_range = {layer_range} of length {len(layer_range)}")
    if not all(isinstance(name, str) for name in layer_range):
        raise ValueError(f"layer_range should contain string type only. Received: {layer_range}")
    lower = [i for i, layer in enumerate(layers) if re.match(layer_range[0], layer.name)]
    upper = [i for i, layer in enumerate(layers) if re.match(layer_range[1], layer.name)]
    if not lower or not upper:
        raise ValueError("Passed layer_names do not match the layer names in the model. "
                         f"Received: {layer_range}")
    if min(lower) > max(upper):
        return min(upper), max(lower) + 1
    return min(lower), max(upper) + 1


def print_summary(model, line_length=None, positions=None, print_fn=None, expand_nested=False,
                  show_trainable=False, layer_range=None):
    """Print ``model``'s layers, output shapes and parameter counts as Keras 3 does.

    Args:
        model: a ``Sequential``, functional or subclassed ``Model``.
        line_length: the table's width (default ``min(88, columns - 4)`` for
            sequence-like models, ``min(108, columns - 4)`` with the "Connected to" column,
            ``columns`` being the terminal's width, 80 when not a terminal).
        positions: the right edges of the columns, as fractions of ``line_length`` or in
            characters.
        print_fn: called once with the whole text (a string ending in a newline);
            default: written to stdout.
        expand_nested: also list the layers of nested models (indented with ``└``).
        show_trainable: add a "Trainable" column (Y, N, or - for a layer without weights).
        layer_range: two regular expressions: print from the first layer whose name
            matches the first to the last whose name matches the second.

    Raises:
        ValueError: when a column would be narrower than 4 characters, or for a bad
            ``layer_range``.
    """
    if getattr(model, "_fn_outputs", None) is not None:
        layers, sequential_like, connections = _functional_layout(model)
    else:
        layers, sequential_like, connections = model.layers, True, {}
    if sequential_like:
        default, header = 88, ["Layer (type)", "Output Shape", "Param #"]
        positions = positions or [0.45, 0.80, 1.0]
    else:
        default = 108
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        positions = positions or [0.3, 0.56, 0.74, 1.0]
    justify = ["left", "left", "right"] + (["left"] if not sequential_like else [])
    if show_trainable:
        default += 12
        positions = [p * 0.90 for p in positions] + [1.0]
        header.append("Trainable")
        justify.append("center")
    line_length = line_length or min(default, shutil.get_terminal_size().columns - 4)
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    widths, current = [], 0
    for pos in positions:
        if pos - current < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(pos - current)
        current = pos
    n = len(widths)
    cells = [w + 2 for w in widths]
    excess = sum(cells) - (line_length - (n + 1))
    if excess > 0:
        cells = _ratio_reduce(excess, [1] * n, cells, cells)
    content = [c - 2 for c in cells]

    def row(bar, values):
        wrapped = [_wrap(v, w) for v, w in zip(values, content, strict=False)]
        height = max(len(w) for w in wrapped)
        out = []
        for i in range(height):
            parts = []
            for j, lines in enumerate(wrapped):
                text = lines[i] if i < len(lines) else ""
                if justify[j] == "right":
                    text = text.rjust(content[j])
                elif justify[j] == "center":
                    left = (content[j] - len(text)) // 2
                    text = (" " * left + text).ljust(content[j])
                else:
                    text = text.ljust(content[j])
                parts.append(f" {text} ")
            out.append(bar + bar.join(parts) + bar)
        return out

    def rule(left, fill, mid, right):
        return left + mid.join(fill * c for c in cells) + right

    lines = [f'Model: "{model.name}"', rule("┏", "━", "┳", "┓")]
    lines += row("┃", header)
    lines.append(rule("┡", "━", "╇", "┩"))
    def fields(layer, prefix):
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        out = [f"{prefix}{layer.name} ({type(layer).__name__})", _output_shape(layer), params]
        if not sequential_like:
            out.append(connections.get(id(layer), "-"))
        if show_trainable:
            out.append(("Y" if layer.trainable else "N") if layer.weights else "-")
        return out

    def rows_of(layer, level=0):
        rows = [fields(layer, "   " * level + "└ " if level else "")]
        if expand_nested and getattr(layer, "layers", None):
            for sub in layer.layers:
                rows += rows_of(sub, level + 1)
        return rows

    first, last = _layer_range(layers, layer_range)
    rows = [r for layer in layers[first:last] for r in rows_of(layer)]
    for i, cells_ in enumerate(rows):
        lines += row("│", cells_)
        if i < len(rows) - 1:
            lines.append(rule("├", "─", "┼", "┤"))
    lines.append(rule("└", "─", "┴", "┘"))
    train_count, train_bytes = _count(model.trainable_weights)
    frozen_count, frozen_bytes = _count(model.non_trainable_weights)
    optimizer = getattr(model, "optimizer", None)
    opt_vars = list(optimizer.variables) if getattr(optimizer, "built", False) else []
    opt_count, opt_bytes = _count(opt_vars)
    total = train_count + frozen_count + opt_count
    lines += [f" Total params: {total:,} "
              f"({_readable_size(train_bytes + frozen_bytes + opt_bytes)})",
              f" Trainable params: {train_count:,} ({_readable_size(train_bytes)})",
              f" Non-trainable params: {frozen_count:,} ({_readable_size(frozen_bytes)})"]
    if opt_vars:
        lines.append(f" Optimizer params: {opt_count:,} ({_readable_size(opt_bytes)})")
    text = "\n".join(lines) + "\n"
    if print_fn is None:
        from ..config import is_interactive_logging_enabled, print_msg
        if not is_interactive_logging_enabled():
            print_msg(text, line_break=False)   # one absl record, as Keras sends it
            return
        sys.stdout.write(text)
    else:
        print_fn(text)
