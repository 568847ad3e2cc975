"""Bounding boxes (``tf.image``): non-max suppression (plain, with scores and soft-NMS, with
overlaps, padded, combined), ``draw_bounding_boxes`` and ``crop_and_resize``.

The suppression ops and ``draw_bounding_boxes`` have no gradient in TensorFlow: they are
NumPy kernels written after TensorFlow's CPU kernels (greedy selection in score order, ties
to the lower index), declared as non-differentiable primitives so a traced program replays
them. ``crop_and_resize`` is a composition of gathers and lerps whose weights are tensor
functions of the boxes, so it differentiates in the image and in the boxes as TensorFlow's
``CropAndResize`` gradients do.
"""
import heapq

from .._core import dtypes as _dt
from .._core import errors
from .._core.backend import np
from .._core.dispatch import ACTIVE, apply, current_tracer
from .._core.registry import nondifferentiable
from .._core.tensor import Tensor, _TensorLike, convert_to_tensor, static_value
from . import array_ops as _a
from . import indexing_ops as _ix
from . import math_ops as _m

__all__ = ["non_max_suppression", "non_max_suppression_with_scores",
           "non_max_suppression_overlaps", "non_max_suppression_padded",
           "combined_non_max_suppression", "draw_bounding_boxes", "crop_and_resize",
           "sample_distorted_bounding_box", "stateless_sample_distorted_bounding_box"]


def _t(x, dtype=None):
    if isinstance(x, _TensorLike):
        return x if dtype is None or x.dtype == dtype else _a.cast(x, dtype)
    return convert_to_tensor(x, dtype=dtype)


def _iou_matrix(boxes):
    b = boxes.astype(np.float32)
    ymin = np.minimum(b[:, 0], b[:, 2])
    ymax = np.maximum(b[:, 0], b[:, 2])
    xmin = np.minimum(b[:, 1], b[:, 3])
    xmax = np.maximum(b[:, 1], b[:, 3])
    area = (ymax - ymin) * (xmax - xmin)
    ih = np.maximum(np.minimum(ymax[:, None], ymax[None]) - np.maximum(ymin[:, None], ymin[None]),
                    np.float32(0))
    iw = np.maximum(np.minimum(xmax[:, None], xmax[None]) - np.maximum(xmin[:, None], xmin[None]),
                    np.float32(0))
    inter = (ih * iw).astype(np.float32)
    union = (area[:, None] + area[None] - inter).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where((area[:, None] <= 0) | (area[None] <= 0), np.float32(0), inter / union)
    return iou.astype(np.float32)


def _greedy(similarity, scores, max_output, threshold, score_threshold, sigma=0.0):
    """TensorFlow's ``DoNonMaxSuppressionOp``: (selected indices, their scores)."""
    scores = scores.astype(np.float32)
    scale = np.float32(-0.5 / sigma) if sigma > 0 else np.float32(0)
    soft = sigma > 0
    thr, sthr = np.float32(threshold), np.float32(score_threshold)
    heap = [(-scores[i], i, 0) for i in range(len(scores)) if scores[i] > sthr]
    heapq.heapify(heap)
    selected, kept = [], []
    while len(selected) < max_output and heap:
        neg, idx, begin = heapq.heappop(heap)
        score = original = np.float32(-neg)
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            sim = np.float32(similarity(idx, selected[j]))
            weight = np.float32(np.exp(scale * sim * sim))
            score = np.float32(score * (weight if soft or sim <= thr else np.float32(0)))
            if not soft and sim > thr:
                hard = True
                break
            if score <= sthr:
                break
        if hard:
            continue
        if score == original:
            selected.append(idx)
            kept.append(score)
        elif score > sthr:
            heapq.heappush(heap, (-score, idx, len(selected)))
    return np.array(selected, np.int32), np.array(kept, np.float32)


def _check_nms(boxes, scores, max_output_size, thr_name, threshold, op, overlaps=False):
    b, s = boxes._value, scores._value
    m = static_value(max_output_size) if isinstance(max_output_size, _TensorLike) else \
        np.asarray(max_output_size)
    if m.ndim != 0:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"max_output_size must be 0-D, got shape {_dims(m.shape)}", op)
    if not overlaps and (b.ndim != 2 or b.shape[1] != 4):
        raise errors.op_error(errors.InvalidArgumentError,
                              f"boxes must be 2-D[num_boxes, 4], got shape {_dims(b.shape)}"
                              if b.ndim != 2 else
                              "boxes must have 4 columns (Dimension must be 4 but is "
                              f"{b.shape[1]})", op)
    if s.ndim != 1 or s.shape[0] != b.shape[0]:
        why = (f"(Dimensions must be equal, but are {b.shape[0]} and {s.shape[0]})"
               if s.ndim == 1 else f"(Shape must be rank 1 but is rank {s.ndim})")
        raise errors.op_error(errors.InvalidArgumentError,
                              f"scores has incompatible shape {why}", op)
    t = float(static_value(threshold) if isinstance(threshold, _TensorLike) else threshold)
    if not (0 <= t <= 1):
        raise errors.op_error(errors.InvalidArgumentError,
                              f"{thr_name} must be in [0, 1]", op)
    return int(m), t


def _dims(shape):
    return "[" + ",".join(map(str, shape)) + "]"


def _nms_forward(boxes, scores, max_output, iou_threshold, score_threshold, sigma):
    iou = _iou_matrix(boxes)
    return _greedy(lambda i, j: iou[i, j], scores, int(max_output), float(iou_threshold),
                   float(score_threshold), float(sigma))


_NMS = nondifferentiable("NonMaxSuppressionV5", lambda b, s, m, t, st, sg: _nms_forward(
    b, s, m, t, st, sg), n_outputs=2)
_NMS_OVERLAPS = nondifferentiable(
    "NonMaxSuppressionWithOverlaps",
    lambda o, s, m, t, st: _greedy(lambda i, j: o[i, j], s, int(m), float(t), float(st))[0])


def _scalar(v, dtype=_dt.float32):
    return _t(v, dtype)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """Indices of at most ``max_output_size`` boxes chosen greedily by descending score,
    each dropped if its IoU with a chosen box exceeds ``iou_threshold``
    (``tf.image.non_max_suppression``). Not differentiable (no gradient in TensorFlow).

    Args:
        boxes: ``[num_boxes, 4]`` float, ``[y1, x1, y2, x2]`` (any corner order).
        scores: ``[num_boxes]`` float.
        max_output_size: int scalar.
        iou_threshold: in ``[0, 1]``.
        score_threshold: boxes scoring at or below it are never chosen.

    Returns:
        int32 ``[M]``, ``M <= max_output_size``, in selection order.

    Raises:
        tf.errors.InvalidArgumentError: for bad shapes or ``iou_threshold`` outside [0, 1].

    Example:
        >>> import tapeflow as tf
        >>> boxes = tf.constant([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]], tf.float32)
        >>> tf.image.non_max_suppression(boxes, tf.constant([0.9, 0.8, 0.7]), 3).numpy()
        array([0, 2], dtype=int32)
    """
    return non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold,
                                           score_threshold, _op="NonMaxSuppressionV3")[0]


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None, _op="NonMaxSuppressionV5"):
    """:func:`non_max_suppression` returning the chosen boxes' scores too, with Soft-NMS
    when ``soft_nms_sigma > 0``: overlapping boxes have their scores decayed by
    ``exp(-iou**2 / (2 sigma))`` instead of being dropped
    (``tf.image.non_max_suppression_with_scores``). Not differentiable.

    Returns:
        ``(selected_indices, selected_scores)``: int32 ``[M]`` and float32 ``[M]``.

    Example:
        >>> import tapeflow as tf
        >>> boxes = tf.constant([[0, 0, 1, 1], [0, 0.1, 1, 1.1]], tf.float32)
        >>> i, s = tf.image.non_max_suppression_with_scores(boxes, tf.constant([0.9, 0.8]),
        ...     2, soft_nms_sigma=0.5)
        >>> i.numpy(), s.numpy().round(3)
        (array([0, 1], dtype=int32), array([0.9 , 0.41], dtype=float32))
    """
    b, s = _t(boxes), _t(scores)
    _check_nms(b, s, max_output_size, "iou_threshold", iou_threshold, _op)
    sig = float(static_value(soft_nms_sigma) if isinstance(soft_nms_sigma, _TensorLike)
                else soft_nms_sigma)
    if sig < 0:
        raise errors.op_error(errors.InvalidArgumentError,
                              "soft_nms_sigma must be non-negative", _op)
    return apply(_NMS, (b, s, _t(max_output_size, _dt.int32), _scalar(iou_threshold),
                        _scalar(score_threshold), _scalar(sig)))


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """:func:`non_max_suppression` with a given ``[num_boxes, num_boxes]`` overlap matrix
    in place of IoU (``tf.image.non_max_suppression_overlaps``). Not differentiable.

    Returns:
        int32 ``[M]``.

    Example:
        >>> import tapeflow as tf
        >>> ov = tf.constant([[1.0, 0.7], [0.7, 1.0]])
        >>> tf.image.non_max_suppression_overlaps(ov, tf.constant([0.2, 0.9]), 2).numpy()
        array([1], dtype=int32)
    """
    o, s = _t(overlaps), _t(scores)
    op = "NonMaxSuppressionWithOverlaps"
    if o._value.ndim != 2 or o._value.shape[0] != o._value.shape[1]:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"overlaps must be square, got shape {_dims(o._value.shape)}", op)
    m = int(static_value(max_output_size) if isinstance(max_output_size, _TensorLike)
            else max_output_size)
    return apply(_NMS_OVERLAPS, (o, s, Tensor(np.int32(m)), _scalar(overlap_threshold),
                                 _scalar(score_threshold)))


def _padded_forward(boxes, scores, max_output, iou_threshold, score_threshold):
    lead = boxes.shape[:-2]
    flat_b = boxes.reshape((-1,) + boxes.shape[-2:])
    flat_s = scores.reshape((-1, scores.shape[-1]))
    m = int(max_output)
    idx = np.zeros((flat_b.shape[0], m), np.int32)
    valid = np.zeros(flat_b.shape[0], np.int32)
    for k in range(flat_b.shape[0]):
        sel, _ = _nms_forward(flat_b[k], flat_s[k], m, iou_threshold, score_threshold, 0.0)
        idx[k, :len(sel)] = sel
        valid[k] = len(sel)
    return idx.reshape(lead + (m,)), valid.reshape(lead)


_NMS_PADDED = nondifferentiable("NonMaxSuppressionPadded", _padded_forward, n_outputs=2)


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """:func:`non_max_suppression` over a batch, the indices zero-padded to
    ``max_output_size`` (``tf.image.non_max_suppression_padded``). Not differentiable.

    Args:
        boxes: ``[..., num_boxes, 4]``; scores ``[..., num_boxes]``.
        pad_to_max_output_size: must be True for batched input; False returns the valid
            indices only (unbatched).
        sorted_input, canonicalized_coordinates, tile_size: TensorFlow's speed hints, accepted
            and not needed here.

    Returns:
        ``(selected_indices, valid_outputs)``: int32 ``[..., max_output_size]`` (or ``[M]``)
        and int32 ``[...]``.

    Raises:
        ValueError: for batched input without ``pad_to_max_output_size``.

    Example:
        >>> import tapeflow as tf
        >>> boxes = tf.constant([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]], tf.float32)
        >>> i, n = tf.image.non_max_suppression_padded(boxes, tf.constant([0.9, 0.8, 0.7]), 3,
        ...     pad_to_max_output_size=True)
        >>> i.numpy(), int(n)
        (array([0, 2, 0], dtype=int32), 2)
    """
    b, s = _t(boxes), _t(scores)
    if not pad_to_max_output_size and b._value.ndim > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be "
                         "True for batched input")
    m = int(static_value(max_output_size) if isinstance(max_output_size, _TensorLike)
            else max_output_size)
    idx, valid = apply(_NMS_PADDED, (b, s, Tensor(np.int32(m)), _scalar(iou_threshold),
                                     _scalar(score_threshold)))
    if not pad_to_max_output_size:
        idx = _ix.strided_slice_getitem(idx, (slice(0, int(static_value(valid))),))
    return idx, valid


def _combined_forward(boxes, scores, per_class, total, iou_threshold, score_threshold,
                      pad_per_class, clip_boxes):
    nb, n, q, _ = boxes.shape
    classes = scores.shape[2]
    per_class, total = int(per_class), int(total)
    dets = min(total, per_class * classes) if pad_per_class else total
    out_b = np.zeros((nb, dets, 4), np.float32)
    out_s = np.zeros((nb, dets), np.float32)
    out_c = np.zeros((nb, dets), np.float32)
    valid = np.zeros(nb, np.int32)
    for k in range(nb):
        found = []
        for c in range(classes):
            bx = boxes[k, :, c if q > 1 else 0, :]
            sel, sc = _nms_forward(bx, scores[k, :, c], per_class, iou_threshold,
                                   score_threshold, 0.0)
            found += [(float(sc[i]), c, bx[sel[i]]) for i in range(len(sel))]
        found.sort(key=lambda r: -r[0])
        found = found[:dets]
        valid[k] = len(found)
        for i, (sc, c, bx) in enumerate(found):
            out_s[k, i], out_c[k, i] = sc, c
            out_b[k, i] = np.clip(bx, 0, 1) if clip_boxes else bx
    return out_b, out_s, out_c, valid


_COMBINED = nondifferentiable("CombinedNonMaxSuppression", _combined_forward, n_outputs=4)


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """Per image, :func:`non_max_suppression` in each class, the survivors of all classes
    ranked by score and cut to ``max_total_size`` (``tf.image.combined_non_max_suppression``).
    Not differentiable.

    Args:
        boxes: ``[batch, num_boxes, q, 4]``, ``q`` 1 (boxes shared by classes) or
            ``num_classes``.
        scores: ``[batch, num_boxes, num_classes]``.
        max_output_size_per_class, max_total_size: ints.
        pad_per_class: pad to ``min(max_total_size, per_class * classes)`` instead of
            ``max_total_size``.
        clip_boxes: clip the returned boxes to ``[0, 1]``.

    Returns:
        ``(nmsed_boxes [batch, D, 4], nmsed_scores [batch, D], nmsed_classes [batch, D],
        valid_detections [batch])``: float32, float32, float32, int32; zero-padded.

    Raises:
        tf.errors.InvalidArgumentError: for inconsistent shapes or thresholds.

    Example:
        >>> import tapeflow as tf
        >>> boxes = tf.constant([[[[0, 0, 1, 1]], [[0, 0.1, 1, 1.1]]]], tf.float32)
        >>> out = tf.image.combined_non_max_suppression(boxes, tf.constant([[[0.9], [0.8]]]),
        ...     2, 2)
        >>> out[1].numpy(), out[3].numpy()
        (array([[0.9, 0. ]], dtype=float32), array([1], dtype=int32))
    """
    b, s = _t(boxes, _dt.float32), _t(scores, _dt.float32)
    op = "CombinedNonMaxSuppression"
    bs, ss = b._value.shape, s._value.shape
    if len(bs) != 4:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"boxes must be 4-D{_dims(bs)}", op)
    if len(ss) != 3:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"scores must be 3-D{_dims(ss)}", op)
    if bs[3] != 4:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"boxes must have 4 columns{_dims(bs)}", op)
    if bs[2] != 1 and bs[2] != ss[2]:
        raise errors.op_error(errors.InvalidArgumentError,
                              "third dimension of boxes must be either 1 or num classes", op)
    t = float(static_value(iou_threshold) if isinstance(iou_threshold, _TensorLike)
              else iou_threshold)
    if not (0 <= t <= 1):
        raise errors.op_error(errors.InvalidArgumentError, "iou_threshold must be in [0, 1]",
                              op)
    per = int(static_value(max_output_size_per_class) if isinstance(max_output_size_per_class,
                                                             _TensorLike)
              else max_output_size_per_class)
    tot = int(static_value(max_total_size) if isinstance(max_total_size, _TensorLike)
              else max_total_size)
    if tot <= 0:
        raise errors.op_error(errors.InvalidArgumentError,
                              "max_total_size must be > 0", op)
    return tuple(apply(_COMBINED, (b, s, Tensor(np.int32(per)), Tensor(np.int32(tot)),
                                   _scalar(t), _scalar(score_threshold)),
                       {"pad_per_class": bool(pad_per_class),
                        "clip_boxes": bool(clip_boxes)}))


_DEFAULT_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                   [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1],
                   [1, 0, 1, 1]]


def _draw_forward(images, boxes, colors):
    out = images.copy()
    _, h, w, depth = images.shape
    table = colors.astype(np.float32) if colors.size else np.array(_DEFAULT_COLORS, np.float32)
    if not colors.size and depth == 1:
        table[:, 0] = 1
    bf = boxes.astype(np.float32)
    for b in range(images.shape[0]):
        for k in range(boxes.shape[1]):
            color = table[k % len(table)][:depth].astype(images.dtype)
            r0 = int(bf[b, k, 0] * np.float32(h - 1))
            r1 = int(bf[b, k, 2] * np.float32(h - 1))
            c0 = int(bf[b, k, 1] * np.float32(w - 1))
            c1 = int(bf[b, k, 3] * np.float32(w - 1))
            if r0 > r1 or c0 > c1 or r0 >= h or r1 < 0 or c0 >= w or c1 < 0:
                continue
            rc0, rc1, cc0, cc1 = max(r0, 0), min(r1, h - 1), max(c0, 0), min(c1, w - 1)
            if r0 >= 0:
                out[b, r0, cc0:cc1 + 1] = color
            if r1 < h:
                out[b, r1, cc0:cc1 + 1] = color
            if c0 >= 0:
                out[b, rc0:rc1 + 1, c0] = color
            if c1 < w:
                out[b, rc0:rc1 + 1, c1] = color
    return out


_DRAW = nondifferentiable("DrawBoundingBoxesV2", _draw_forward)


def draw_bounding_boxes(images, boxes, colors, name=None):
    """``images`` with each box's one-pixel outline drawn, box ``k`` in colour
    ``colors[k % len(colors)]`` (``tf.image.draw_bounding_boxes``). Box corners
    ``[y_min, x_min, y_max, x_max]`` are fractions of ``height - 1`` and ``width - 1``,
    truncated to pixels; inverted boxes and boxes wholly outside are skipped. Not
    differentiable (no gradient in TensorFlow).

    Args:
        images: ``[batch, height, width, depth]``, float32 or float16, depth 1, 3 or 4.
        boxes: ``[batch, num_boxes, 4]`` float32.
        colors: ``[num_colors, >= depth]`` float32, or None for TensorFlow's table of ten.

    Returns:
        ``images``' shape and dtype.

    Raises:
        tf.errors.InvalidArgumentError: for a bad rank, depth or box shape.

    Example:
        >>> import tapeflow as tf
        >>> out = tf.image.draw_bounding_boxes(tf.zeros((1, 3, 3, 1)),
        ...     tf.constant([[[0.0, 0.0, 1.0, 1.0]]]), None)
        >>> out[0, :, :, 0].numpy()
        array([[1., 1., 1.],
               [1., 0., 1.],
               [1., 1., 1.]], dtype=float32)
    """
    x, b = _t(images), _t(boxes, _dt.float32)
    op = "DrawBoundingBoxes" if colors is None else "DrawBoundingBoxesV2"
    s = x._value.shape
    if len(s) != 4:
        raise errors.op_error(errors.InvalidArgumentError,
                              "The rank of the images should be 4", op)
    if s[3] not in (1, 3, 4):
        raise errors.op_error(errors.InvalidArgumentError,
                              "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)",
                              op)
    bs = b._value.shape
    if len(bs) != 3 or bs[2] != 4 or bs[0] != s[0]:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"boxes must be 3-D [batch, num_boxes, 4]: {_dims(bs)}"
                              if len(bs) != 3 or bs[2] != 4 else
                              "images and boxes must have the same batch size", op)
    c = Tensor(np.zeros((0, 4), np.float32)) if colors is None else _t(colors, _dt.float32)
    if colors is not None and (c._value.ndim != 2 or c._value.shape[1] < s[3]):
        raise errors.op_error(errors.InvalidArgumentError,
                              "Color table must be a 2-D tensor with at least depth columns",
                              op)
    return apply(_DRAW, (x, b, c))


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None):
    """Crops of ``image`` at normalised ``boxes``, each resized to ``crop_size`` by
    bilinear (or nearest) sampling with corner alignment (``tf.image.crop_and_resize``).
    Sample points outside the image take ``extrapolation_value``. Differentiable in the
    image and in the boxes.

    Args:
        image: ``[batch, height, width, depth]``, a real dtype (sampled in float32).
        boxes: ``[num_boxes, 4]`` float32 ``[y1, x1, y2, x2]`` in units of ``height - 1`` and
            ``width - 1`` (``y1 > y2`` flips the crop).
        box_indices: ``[num_boxes]`` int32, the image of each box, in ``[0, batch)``.
        crop_size: ``[crop_height, crop_width]`` positive ints.
        method: ``'bilinear'`` or ``'nearest'``.
        extrapolation_value: the float fill outside the image.

    Returns:
        float32 ``[num_boxes, crop_height, crop_width, depth]``.

    Raises:
        tf.errors.InvalidArgumentError: for bad shapes, sizes or box indices.
        ValueError: for another method.

    Example:
        >>> import tapeflow as tf
        >>> img = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
        >>> out = tf.image.crop_and_resize(img, [[0.0, 0.0, 1.0, 1.0]], [0], [2, 2])
        >>> out[0, :, :, 0].numpy()
        array([[0., 2.],
               [6., 8.]], dtype=float32)
    """
    x = _t(image)
    b = _t(boxes, _dt.float32)
    bi = _t(box_indices, _dt.int32)
    op = "CropAndResize"

    def fail(text, cls=errors.InvalidArgumentError):
        return cls(None, None, f"{text} [Op:{op}]")
    size = [int(v) for v in (static_value(crop_size).tolist() if isinstance(crop_size, _TensorLike)
                             else crop_size)]
    if method not in ("bilinear", "nearest"):
        raise fail("method must be 'bilinear' or 'nearest'")
    s = x._value.shape
    if len(s) != 4:
        raise fail(f"input image must be 4-D{_dims(s)}")
    n_img, h, w, depth = s
    if not (h > 0 and w > 0):
        raise fail("image dimensions must be positive")
    bs = b._value.shape
    if len(bs) != 2 or bs[1] != 4:
        raise fail(f"boxes must be 2-D{_dims(bs)}" if len(bs) != 2 else
                              "boxes must have 4 columns")
    if bi._value.shape != (bs[0],):
        raise fail("box_index has incompatible shape")
    if len(size) != 2:
        raise fail("crop_size must be a 1-D tensor of length 2")
    ch, cw = size
    if ch <= 0 or cw <= 0:
        raise fail("crop dimensions must be positive")
    # checked eagerly (a traced program would re-trace for every new set of indices)
    biv = None if ACTIVE[0] and current_tracer() is not None else static_value(bi)
    if biv is not None and ((biv < 0) | (biv >= n_img)).any():
        raise fail("box_index has values outside [0, batch_size)", errors.OutOfRangeError)
    xf = x if x.dtype == _dt.float32 else _a.cast(x, _dt.float32)
    n = bs[0]
    f32 = np.float32
    y1, x1, y2, x2 = (b[:, k] for k in range(4))

    def coords(lo, hi, crop, extent):
        # [n, crop] sample positions, a tensor function of the boxes
        if crop > 1:
            step = _m.divide(_m.multiply(_m.subtract(hi, lo), f32(extent - 1)), f32(crop - 1))
            grid = Tensor(np.arange(crop, dtype=np.float32)[None, :])
            return _m.add(_m.multiply(lo, f32(extent - 1))[:, None],
                          _m.multiply(grid, step[:, None]))
        mid = _m.multiply(_m.multiply(_m.add(lo, hi), f32(0.5)), f32(extent - 1))
        return _a.reshape(mid, (-1, 1))
    in_y = coords(y1, y2, ch, h)
    in_x = coords(x1, x2, cw, w)

    # Indices and masks are ops on the boxes too, so a traced program replays them.
    def inside(v, extent):
        return _m.logical_and(_m.greater_equal(v, f32(0)), _m.less_equal(v, f32(extent - 1)))

    def index(v, extent):
        return _m.minimum(_m.maximum(_a.cast(v, _dt.int32), 0), extent - 1)
    valid = _m.logical_and(_a.reshape(inside(in_y, h), (n, ch, 1, 1)),
                           _a.reshape(inside(in_x, w), (n, 1, cw, 1)))
    flat = _a.reshape(xf, (n_img * h * w, depth))
    base = _a.reshape(_m.multiply(bi, h * w), (n, 1, 1))

    def sample(rows, cols):
        idx = _m.add(_m.add(base, _a.reshape(_m.multiply(rows, w), (n, ch, 1))),
                     _a.reshape(cols, (n, 1, cw)))
        return _ix.gather(flat, idx)
    if method == "nearest":
        # C's roundf: halves away from zero (the positions used are non-negative)
        out = sample(index(_m.floor(_m.add(in_y, f32(0.5))), h),
                     index(_m.floor(_m.add(in_x, f32(0.5))), w))
    else:
        fy, fx = _a.stop_gradient(_m.floor(in_y)), _a.stop_gradient(_m.floor(in_x))
        top, bot = index(fy, h), index(_m.ceil(in_y), h)
        left, right = index(fx, w), index(_m.ceil(in_x), w)
        yl = _a.reshape(_m.subtract(in_y, fy), (n, ch, 1, 1))
        xl = _a.reshape(_m.subtract(in_x, fx), (n, 1, cw, 1))
        tl, tr = sample(top, left), sample(top, right)
        bl, br = sample(bot, left), sample(bot, right)
        t = _m.add(tl, _m.multiply(_m.subtract(tr, tl), xl))
        bo = _m.add(bl, _m.multiply(_m.subtract(br, bl), xl))
        out = _m.add(t, _m.multiply(_m.subtract(bo, t), yl))
    mask = _a.broadcast_to(valid, (n, ch, cw, depth))
    fill = Tensor(np.full((n, ch, cw, depth), f32(extrapolation_value)))
    return _a.where(mask, out, fill)


# ------------------------------------------------------------- distorted bounding boxes
def _lrint(v):
    return int(np.rint(np.float32(v)))


def _random_crop(rng, w, h, min_rel, max_rel, ar):
    """TensorFlow's ``GenerateRandomCrop``: a crop rectangle (x0, y0, x1, y1) or None."""
    if max_rel <= 0 or ar <= 0 or w <= 0 or h <= 0 or min_rel > max_rel:
        return None
    f = np.float32
    min_area, max_area = f(min_rel) * f(w) * f(h), f(max_rel) * f(w) * f(h)
    height = _lrint(np.sqrt(min_area / f(ar)))
    max_height = _lrint(np.sqrt(max_area / f(ar)))
    if _lrint(max_height * f(ar)) > w:
        max_height = int((w + 0.5 - 0.0000001) / f(ar))
        if _lrint(max_height * f(ar)) > w:
            max_height -= 1
    max_height = min(max_height, h)
    height = min(height, max_height)
    if height < max_height:
        height += int(rng.integers(0, max_height - height + 1))
    width = _lrint(height * f(ar))
    area = f(width * height)
    if area < min_area:
        height += 1
        width = _lrint(height * f(ar))
        area = f(width * height)
    if area > max_area:
        height -= 1
        width = _lrint(height * f(ar))
        area = f(width * height)
    if area < min_area or area > max_area or width > w or height > h or width <= 0 \
            or height <= 0:
        return None
    y = int(rng.integers(0, h - height)) if height < h else 0
    x = int(rng.integers(0, w - width)) if width < w else 0
    return x, y, x + width, y + height


def _area(r):
    return max(r[2] - r[0], 0) * max(r[3] - r[1], 0)


def _covers(crop, boxes, min_covered):
    if _area(crop) < 1:
        return False
    for b in boxes:
        a = _area(b)
        if a < 1:
            continue
        inter = (max(crop[0], b[0]), max(crop[1], b[1]), min(crop[2], b[2]), min(crop[3], b[3]))
        if inter[2] <= inter[0] or inter[3] <= inter[1]:
            inter = (0, 0, 0, 0)
        if np.float32(_area(inter)) / np.float32(a) >= np.float32(min_covered):
            return True
    return False


def _distorted_forward(image_size, boxes, seeds, min_covered, ar_range, area_range, attempts,
                       use_image):
    h, w = int(image_size[0]), int(image_size[1])
    rects = [(int(np.float32(b[1]) * w), int(np.float32(b[0]) * h),
              int(np.float32(b[3]) * w), int(np.float32(b[2]) * h))
             for b in boxes.reshape(-1, 4)]
    if not rects:
        rects = [(0, 0, w, h)]
    rng = np.random.Generator(np.random.Philox(key=[int(s) & 0xFFFFFFFFFFFFFFFF
                                                    for s in seeds.reshape(-1)[:2]]))
    crop = None
    for _ in range(attempts):
        ar = np.float32(rng.random(dtype=np.float32)) * np.float32(ar_range[1] - ar_range[0]) \
            + np.float32(ar_range[0])
        cand = _random_crop(rng, w, h, area_range[0], area_range[1], ar)
        if cand is not None and _covers(cand, rects, min_covered):
            crop = cand
            break
    if crop is None:
        crop = (0, 0, w, h)
    x0, y0, x1, y1 = crop
    begin = np.array([y0, x0, 0], image_size.dtype)
    size = np.array([y1 - y0, x1 - x0, -1], image_size.dtype)
    f = np.float32
    bbox = np.array([[[f(y0) / f(h), f(x0) / f(w), f(y1) / f(h), f(x1) / f(w)]]], np.float32)
    return begin, size, bbox


_DISTORTED = nondifferentiable("SampleDistortedBoundingBoxV2", _distorted_forward, n_outputs=3)


def _distorted(image_size, bounding_boxes, seeds, min_object_covered, aspect_ratio_range,
               area_range, max_attempts, use_image_if_no_bounding_boxes, op):
    def fail(text):
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")
    size = _t(image_size)
    boxes = _t(bounding_boxes, _dt.float32)
    if size._value.shape != (3,):
        raise fail(f"image_size must contain 3 elements{_dims(size._value.shape)}")
    if boxes._value.ndim != 3:
        raise fail("input boxes must be 3-dimensional [batch, num_boxes, coords]: "
                   f"{_dims(boxes._value.shape)}")
    if boxes._value.shape[-1] != 4:
        raise fail(f"bounding boxes must have shape [4] or [*, 4], got "
                   f"{_dims(boxes._value.shape)}")
    ar = [0.75, 1.33] if aspect_ratio_range is None else [float(v) for v in aspect_ratio_range]
    area = [0.05, 1.0] if area_range is None else [float(v) for v in area_range]
    attempts = 100 if max_attempts is None else int(max_attempts)
    use_image = bool(use_image_if_no_bounding_boxes)
    cov = float(static_value(min_object_covered) if isinstance(min_object_covered, _TensorLike)
                else min_object_covered)
    if cov < 0:
        raise fail(f"Min object covered must be non-negative: {cov:g}")
    if len(ar) != 2:
        raise fail("Aspect ratio range field must specify 2 dimensions")
    if len(area) != 2:
        raise fail("Area range field must specify 2 dimensions")
    if area[0] > 1 or area[1] > 1:
        raise fail(f"Area range must be less then or equal to 1.0: [{area[0]:g}, {area[1]:g}]")
    if attempts <= 0:
        raise fail(f"Max attempts must be non-negative: {attempts}")
    if boxes._value.size == 0 and not use_image:
        raise fail("No bounding boxes provided as input. One must enable "
                   "use_image_if_no_bounding_boxes if you wish to not provide any bounding "
                   "boxes.")
    return tuple(apply(_DISTORTED, (size, boxes, seeds), {
        "min_covered": cov, "ar_range": tuple(ar), "area_range": tuple(area),
        "attempts": attempts, "use_image": use_image}))


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """A random crop of an image that covers at least ``min_object_covered`` of one of
    ``bounding_boxes``, with an aspect ratio and area in the given ranges
    (``tf.image.sample_distorted_bounding_box``): TensorFlow's kernel algorithm (up to
    ``max_attempts`` draws, else the whole image), drawn from tapeflow's random stream, so
    the crops are not TensorFlow's. Not differentiable.

    Args:
        image_size: int ``[height, width, channels]``.
        bounding_boxes: float32 ``[batch, N, 4]`` of ``[y_min, x_min, y_max, x_max]`` in
            ``[0, 1]``.
        seed: an int (0 draws from the global stream).
        aspect_ratio_range: ``(0.75, 1.33)`` by default; area_range ``(0.05, 1.0)``;
            max_attempts 100.
        use_image_if_no_bounding_boxes: take the whole image as the box when none is given.

    Returns:
        ``(begin, size, bboxes)``: ``[3]`` and ``[3]`` of ``image_size``'s dtype (for
        ``tf.slice``; the channel size is -1) and float32 ``[1, 1, 4]``, the crop in
        ``[0, 1]`` coordinates.

    Raises:
        tf.errors.InvalidArgumentError: for bad shapes or ranges, or no boxes without
            ``use_image_if_no_bounding_boxes``.

    Example:
        >>> import tapeflow as tf
        >>> begin, size, box = tf.image.sample_distorted_bounding_box(
        ...     [10, 12, 3], tf.constant([[[0.1, 0.2, 0.5, 0.7]]]), seed=3)
        >>> size.shape, box.shape
        (TensorShape([3]), TensorShape([1, 1, 4]))
    """
    from .random_ops import uniform
    seeds = uniform([2], 0, np.iinfo(np.int32).max, dtype=_dt.int32, seed=seed or None)
    return _distorted(image_size, bounding_boxes, seeds, min_object_covered,
                      aspect_ratio_range, area_range, max_attempts,
                      use_image_if_no_bounding_boxes, "SampleDistortedBoundingBoxV2")


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """:func:`sample_distorted_bounding_box` determined by ``seed`` (a shape ``[2]``
    integer): the same crop for the same seed. The crop follows TensorFlow's algorithm and
    constraints, but its draws are not TensorFlow's (``tf.image.
    stateless_sample_distorted_bounding_box``).

    Returns:
        ``(begin, size, bboxes)`` as :func:`sample_distorted_bounding_box`.

    Example:
        >>> import tapeflow as tf
        >>> out = tf.image.stateless_sample_distorted_bounding_box(
        ...     [10, 12, 3], tf.constant([[[0.1, 0.2, 0.5, 0.7]]]), seed=[3, 4])
        >>> out[2].shape
        TensorShape([1, 1, 4])
    """
    seeds = _t(seed, _dt.int64)
    if seeds._value.shape != (2,):
        raise errors.InvalidArgumentError(
            None, None, f"seed must have shape [2], not {_dims(seeds._value.shape)} "
            "[Op:StatelessSampleDistortedBoundingBox]")
    return _distorted(image_size, bounding_boxes, seeds, min_object_covered,
                      aspect_ratio_range, area_range, max_attempts,
                      use_image_if_no_bounding_boxes, "StatelessSampleDistortedBoundingBox")
