"""Connectionist temporal classification: ``tf.nn.ctc_loss`` (with its gradient) and
``tf.nn.ctc_greedy_decoder``.

The loss is the forward (alpha) recursion over the label with blanks interleaved, in log
space in float64; its gradient with respect to the logits is ``softmax - posterior`` from the
alpha-beta occupancies (zero past each sequence's ``logit_length``), both ops of their own so
a traced program recomputes them from each call's values.
"""
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import Primitive, defvjp
from ._helpers import to_tensor
from .array_ops import cast, reshape, transpose, where
from .indexing_ops import gather
from .math_ops import add, less, multiply

__all__ = ["ctc_beam_search_decoder", "ctc_greedy_decoder", "ctc_loss"]


def _lse(a, b):
    m = np.maximum(a, b)
    with np.errstate(invalid="ignore"):
        out = m + np.log(np.exp(a - m) + np.exp(b - m))
    return np.where(m == -np.inf, -np.inf, out)


def _one(logits, label, blank):
    """``(loss, grad)`` of one sequence: ``logits`` [T, C] (T its own length), ``label``."""
    t_len, n_cls = logits.shape
    x = logits.astype(np.float64)
    m = x.max(axis=1, keepdims=True) if t_len else x
    lp = x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True)) if t_len else x
    ext = np.full(2 * len(label) + 1, blank, np.int64)
    ext[1::2] = label
    s_len = len(ext)
    skip = np.zeros(s_len, bool)
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    neg = -np.inf
    if t_len == 0:
        loss = 0.0 if s_len == 1 else np.inf
        return loss, np.zeros_like(x)
    alpha = np.full((t_len, s_len), neg)
    alpha[0, 0] = lp[0, ext[0]]
    if s_len > 1:
        alpha[0, 1] = lp[0, ext[1]]
    for t in range(1, t_len):
        prev = alpha[t - 1]
        a = prev.copy()
        a[1:] = _lse(a[1:], prev[:-1])
        a[2:] = np.where(skip[2:], _lse(a[2:], prev[:-2]), a[2:])
        alpha[t] = a + lp[t, ext]
    beta = np.full((t_len, s_len), neg)
    beta[-1, -1] = lp[-1, ext[-1]]
    if s_len > 1:
        beta[-1, -2] = lp[-1, ext[-2]]
    for t in range(t_len - 2, -1, -1):
        nxt = beta[t + 1]
        b = nxt.copy()
        b[:-1] = _lse(b[:-1], nxt[1:])
        sk = np.zeros(s_len, bool)
        sk[:-2] = skip[2:]
        b[:-2] = np.where(sk[:-2], _lse(b[:-2], nxt[2:]), b[:-2])
        beta[t] = b + lp[t, ext]
    log_p = alpha[-1, -1] if s_len == 1 else _lse(alpha[-1, -1], alpha[-1, -2])
    loss = -float(log_p)
    if not np.isfinite(loss):
        return np.inf, np.zeros_like(x)
    ab = alpha + beta
    occ = np.full((t_len, n_cls), neg)
    for s in range(s_len):
        occ[:, ext[s]] = _lse(occ[:, ext[s]], ab[:, s])
    grad = np.exp(lp) - np.exp(occ - lp - log_p)
    return loss, grad


def _ctc_all(logits, labels, label_length, logit_length, blank):
    b_n, t_max, _ = logits.shape
    losses = np.zeros(b_n, logits.dtype)
    grads = np.zeros(logits.shape, np.float64)
    for b in range(b_n):
        t_b = int(logit_length[b])
        lab = labels[b, :int(label_length[b])].astype(np.int64)
        loss, grad = _one(logits[b, :t_b], lab, blank)
        losses[b] = loss
        grads[b, :t_b] = grad
    return losses, grads.astype(logits.dtype)


def _ctc_forward(logits, labels, label_length, logit_length, *, blank):
    return _ctc_all(logits, labels, label_length, logit_length, blank)[0]


def _ctc_grad_forward(logits, labels, label_length, logit_length, *, blank):
    return _ctc_all(logits, labels, label_length, logit_length, blank)[1]


_CTC = Primitive("CTCLoss", _ctc_forward)
_CTC_GRAD = Primitive("CTCLossGrad", _ctc_grad_forward, differentiable=False,
                      save_inputs=False)
defvjp(_CTC, lambda g, y, logits, labels, lab_len, log_len, blank: multiply(
    reshape(g, [-1, 1, 1]), apply(_CTC_GRAD, (logits, labels, lab_len, log_len),
                                  {"blank": blank})), None, None, None)


def _dense_labels(labels, label_length):
    if hasattr(labels, "indices") and hasattr(labels, "dense_shape"):   # a SparseTensor
        idx = labels.indices._value
        vals = labels.values._value
        b_n, width = (int(d) for d in labels.dense_shape._value)
        dense = np.zeros((b_n, width), np.int32)
        lengths = np.zeros(b_n, np.int32)
        for (b, i), v in zip(idx.tolist(), vals.tolist()):
            dense[b, i] = v
            lengths[b] = max(lengths[b], i + 1)
        return to_tensor(dense), to_tensor(lengths)
    if label_length is None:
        raise ValueError("`label_length` must be provided when `labels` is a dense tensor")
    return cast(to_tensor(labels), "int32"), cast(to_tensor(label_length), "int32")


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """The CTC negative log-likelihood of each sequence (``tf.nn.ctc_loss``).

    Args:
        labels: int ``[batch, max_label_length]`` (dense, with ``label_length``) or a
            ``SparseTensor`` of the labels.
        logits: float ``[frames, batch, num_classes]`` (``[batch, frames, num_classes]`` when
            ``logits_time_major`` is False), unnormalized log-probabilities.
        label_length: int ``[batch]`` (None for sparse labels).
        logit_length: int ``[batch]``: the frames of each sequence.
        logits_time_major: the layout of ``logits``.
        unique: accepted; unused (an optimization in TF).
        blank_index: the blank class (default 0; negative counts from ``num_classes``). As
            TF, a nonzero blank is moved to class 0 and the labels below it shifted up.
        name: unused.

    Returns:
        A ``[batch]`` tensor of ``logits``' dtype: ``-log p(labels | logits)``, ``inf`` when
        a label cannot fit its frames. Differentiable in ``logits`` (``softmax`` minus the
        label posterior; zero past ``logit_length``).

    Raises:
        ValueError: dense labels without ``label_length``.
    """
    logits = to_tensor(logits)
    if logits_time_major:
        logits = transpose(logits, [1, 0, 2])
    n_cls = int(logits._value.shape[-1])
    blank = 0 if blank_index is None else int(blank_index)
    if blank < 0:
        blank += n_cls
    labels, label_length = _dense_labels(labels, label_length)
    logit_length = cast(to_tensor(logit_length), "int32")
    if blank != 0:
        # TF moves the blank class to 0 and shifts the labels below it up by one (a label
        # equal to ``blank`` is left as it is, as TF 2.21 leaves it)
        perm = [blank] + list(range(blank)) + list(range(blank + 1, n_cls))
        logits = gather(logits, perm, axis=2)
        labels = where(less(labels, blank), add(labels, 1), labels)
    return apply(_CTC, (logits, labels, label_length, logit_length), {"blank": 0})


def _greedy(inputs, seq_len, *, merge_repeated, blank):
    t_n, b_n, _ = inputs.shape
    best = inputs.argmax(axis=2)
    idx, vals = [], []
    neg = np.zeros((b_n, 1), inputs.dtype)
    width = 0
    for b in range(b_n):
        n = int(seq_len[b])
        prev, k = -1, 0
        neg[b, 0] = -inputs[:n, b].max(axis=1).sum() if n else 0
        for t in range(n):
            c = int(best[t, b])
            if c != blank and not (merge_repeated and c == prev):
                idx.append((b, k))
                vals.append(c)
                k += 1
            prev = c
        width = max(width, k)
    return (np.asarray(idx, np.int64).reshape(-1, 2), np.asarray(vals, np.int64),
            np.array([b_n, width], np.int64), neg)


_GREEDY = Primitive("CTCGreedyDecoder", _greedy, differentiable=False, save_inputs=False,
                    n_outputs=4)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Best path decoding (``tf.nn.ctc_greedy_decoder``): the most likely class per frame,
    repeats merged (``merge_repeated``), blanks dropped.

    Args:
        inputs: float ``[max_time, batch, num_classes]`` logits.
        sequence_length: int32 ``[batch]``.
        merge_repeated: merge runs of the same class.
        blank_index: the blank class (default ``num_classes - 1``; negative counts from
            ``num_classes``).

    Returns:
        ``([decoded], neg_sum_logits)``: ``decoded`` a ``SparseTensor`` of int64 classes
        with dense shape ``[batch, max_decoded_length]``; ``neg_sum_logits`` ``[batch, 1]``,
        minus the sum of each frame's largest logit.
    """
    from .sparse.sparse_tensor import SparseTensor
    x = to_tensor(inputs)
    n_cls = int(x._value.shape[-1])
    blank = n_cls - 1 if blank_index is None else int(blank_index)
    if blank < 0:
        blank += n_cls
    ind, val, shape, neg = apply(_GREEDY, (x, to_tensor(sequence_length)),
                                 {"merge_repeated": bool(merge_repeated), "blank": blank})
    return [SparseTensor(ind, val, shape)], neg


def _add(beams, prefix, pb, pl):
    """Merge the log probabilities ``pb`` (ending in blank) and ``pl`` into ``prefix``."""
    ob, ol = beams.get(prefix, (-np.inf, -np.inf))
    beams[prefix] = (float(np.logaddexp(ob, pb)), float(np.logaddexp(ol, pl)))


def _beam(inputs, seq_len, *, beam_width, top_paths):
    t_n, b_n, n_cls = inputs.shape
    blank = n_cls - 1
    neg = -np.inf
    paths, scores = [], np.zeros((b_n, top_paths), inputs.dtype)
    for b in range(b_n):
        x = inputs[:int(seq_len[b]), b].astype(np.float64)
        m = x.max(axis=1, keepdims=True)
        lp = x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))
        beams = {(): (0.0, neg)}            # prefix -> (log p ending in blank, in a label)
        for t in range(lp.shape[0]):
            nxt = {}
            for prefix, (pb, pl) in beams.items():
                total = float(np.logaddexp(pb, pl))
                _add(nxt, prefix, total + lp[t, blank], neg)
                if prefix:
                    _add(nxt, prefix, neg, pl + lp[t, prefix[-1]])
                for c in range(n_cls):
                    if c == blank:
                        continue
                    src = pb if prefix and c == prefix[-1] else total
                    _add(nxt, prefix + (c,), neg, src + lp[t, c])
            ranked = sorted(nxt.items(), key=lambda kv: -np.logaddexp(*kv[1]))
            beams = dict(ranked[:beam_width])
        ranked = sorted(beams.items(), key=lambda kv: -np.logaddexp(*kv[1]))[:top_paths]
        paths.append([p for p, _ in ranked])
        for k, (_, (pb, pl)) in enumerate(ranked):
            scores[b, k] = np.logaddexp(pb, pl)
    outs = []
    for k in range(top_paths):
        idx = [(b, i) for b in range(b_n) for i in range(len(paths[b][k]))]
        vals = [c for b in range(b_n) for c in paths[b][k]]
        width = max((len(paths[b][k]) for b in range(b_n)), default=0)
        outs += [np.asarray(idx, np.int64).reshape(-1, 2), np.asarray(vals, np.int64),
                 np.array([b_n, width], np.int64)]
    return (*outs, scores)


_BEAM = Primitive("CTCBeamSearchDecoder", _beam, differentiable=False, save_inputs=False,
                  n_outputs=-1)


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """Prefix beam search over CTC logits (``tf.nn.ctc_beam_search_decoder``); the blank is
    the last class.

    Args:
        inputs: float ``[max_time, batch, num_classes]`` logits.
        sequence_length: int32 ``[batch]``.
        beam_width: the prefixes kept per step.
        top_paths: how many decodings to return (<= ``beam_width``).

    Returns:
        ``(decoded, log_probability)``: a list of ``top_paths`` int64 ``SparseTensor``s
        (dense shape ``[batch, longest]``), best first, and ``[batch, top_paths]`` the log
        probability of each decoded prefix (summed over its alignments).

    Raises:
        ValueError: ``top_paths`` larger than ``beam_width`` or below 1.
    """
    from .sparse.sparse_tensor import SparseTensor
    if not 1 <= int(top_paths) <= int(beam_width):
        raise ValueError(f"top_paths must be in [1, beam_width]; got top_paths={top_paths}, "
                         f"beam_width={beam_width}")
    outs = apply(_BEAM, (to_tensor(inputs), to_tensor(sequence_length)),
                 {"beam_width": int(beam_width), "top_paths": int(top_paths)})
    decoded = [SparseTensor(*outs[3 * k:3 * k + 3]) for k in range(int(top_paths))]
    return decoded, outs[-1]
