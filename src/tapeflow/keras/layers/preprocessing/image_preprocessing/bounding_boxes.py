"""Keras 3's bounding-box helpers for the augmentation layers
(``keras.utils.bounding_boxes.convert_format``/``clip_to_image_size`` and the affine box
transform): boxes are ``(..., 4)`` tensors in one of Keras's formats."""
import math

import tapeflow as tf

__all__ = ["FORMATS", "convert_format", "clip_to_image_size", "affine"]

FORMATS = ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", "rel_yxyx",
           "rel_xywh", "rel_center_xywh")


def _split(boxes):
    return tf.split(boxes, 4, axis=-1)


def _to_xyxy(boxes, source, h, w):
    a, b, c, d = _split(boxes)
    if source == "xyxy":
        return boxes
    if source == "yxyx":
        return tf.concat([b, a, d, c], -1)
    if source == "xywh":
        return tf.concat([a, b, a + c, b + d], -1)
    if source == "center_xywh":
        return tf.concat([a - c / 2.0, b - d / 2.0, a + c / 2.0, b + d / 2.0], -1)
    if source == "center_yxhw":
        return tf.concat([b - d / 2.0, a - c / 2.0, b + d / 2.0, a + c / 2.0], -1)
    if source == "rel_xyxy":
        return tf.concat([a * w, b * h, c * w, d * h], -1)
    if source == "rel_yxyx":
        return tf.concat([b * w, a * h, d * w, c * h], -1)
    if source == "rel_xywh":
        return tf.concat([a * w, b * h, (a + c) * w, (b + d) * h], -1)
    return tf.concat([(a - c / 2.0) * w, (b - d / 2.0) * h, (a + c / 2.0) * w,
                      (b + d / 2.0) * h], -1)   # rel_center_xywh


def _from_xyxy(boxes, target, h, w):
    x1, y1, x2, y2 = _split(boxes)
    if target == "xyxy":
        return boxes
    if target == "yxyx":
        return tf.concat([y1, x1, y2, x2], -1)
    if target == "xywh":
        return tf.concat([x1, y1, x2 - x1, y2 - y1], -1)
    if target in ("center_xywh", "center_yxhw"):
        cx, cy = x1 + (x2 - x1) / 2.0, y1 + (y2 - y1) / 2.0
        bw, bh = x2 - x1, y2 - y1
        return tf.concat([cx, cy, bw, bh] if target == "center_xywh" else [cy, cx, bh, bw], -1)
    if target == "rel_xyxy":
        return tf.concat([x1 / w, y1 / h, x2 / w, y2 / h], -1)
    if target == "rel_yxyx":
        return tf.concat([y1 / h, x1 / w, y2 / h, x2 / w], -1)
    if target == "rel_xywh":
        return tf.concat([x1 / w, y1 / h, (x2 - x1) / w, (y2 - y1) / h], -1)
    return tf.concat([(x1 + (x2 - x1) / 2.0) / w, (y1 + (y2 - y1) / 2.0) / h, (x2 - x1) / w,
                      (y2 - y1) / h], -1)   # rel_center_xywh


def convert_format(boxes, source, target, height=None, width=None, dtype="float32"):
    """Boxes (a tensor, or a dict with ``boxes``) from format ``source`` to ``target``
    (``keras.utils.bounding_boxes.convert_format``), via xyxy, in ``dtype``.

    Raises:
        ValueError: boxes not ending in 4, an unknown format, or a relative format without
            ``height`` and ``width``.
    """
    if isinstance(boxes, dict):
        out = dict(boxes)
        out["boxes"] = convert_format(boxes["boxes"], source, target, height, width, dtype)
        return out
    boxes = tf.convert_to_tensor(boxes)
    if boxes.shape[-1] != 4:
        raise ValueError("`boxes` must be a tensor with the last dimension of 4. Received: "
                         f"boxes.shape={tuple(boxes.shape)}")
    source, target = source.lower(), target.lower()
    if source not in FORMATS or target not in FORMATS:
        raise ValueError(f"Invalid source or target format. Supported formats: {FORMATS}")
    if (source.startswith("rel_") or target.startswith("rel_")) and (
            width is None or height is None):
        raise ValueError("convert_format() must receive `height` and `width` transforming "
                         "between relative and absolute formats.convert_format() received "
                         f"source=`{source}`, target=`{target}, but height={height} and "
                         f"width={width}.")
    boxes = tf.cast(boxes, dtype)
    if source == target:
        return boxes
    w = None if width is None else tf.cast(width, dtype)
    h = None if height is None else tf.cast(height, dtype)
    if source.startswith("rel_") and target.startswith("rel_"):
        source, target = source[4:], target[4:]
    return _from_xyxy(_to_xyxy(boxes, source, h, w), target, h, w)


def clip_to_image_size(bounding_boxes, height=None, width=None, bounding_box_format="xyxy"):
    """The boxes clipped to the image (``[0, width] x [0, height]``, or the unit square for
    'rel_xyxy'); a box left with no area gets the label -1.

    Raises:
        NotImplementedError: for another format.
        ValueError: 'xyxy' without ``height`` and ``width``.
    """
    if bounding_box_format not in ("xyxy", "rel_xyxy"):
        raise NotImplementedError
    if bounding_box_format == "xyxy" and (height is None or width is None):
        raise ValueError("`height` and `width` must be set if `format='xyxy'`.")
    boxes = bounding_boxes["boxes"]
    labels = bounding_boxes.get("labels")
    x1, y1, x2, y2 = _split(boxes)
    if bounding_box_format == "xyxy":
        w, h = tf.cast(width, boxes.dtype), tf.cast(height, boxes.dtype)
    else:
        w = h = tf.constant(1.0, boxes.dtype)
    zero = tf.zeros((), boxes.dtype)
    boxes = tf.concat([tf.clip_by_value(x1, zero, w), tf.clip_by_value(y1, zero, h),
                       tf.clip_by_value(x2, zero, w), tf.clip_by_value(y2, zero, h)], -1)
    out = dict(bounding_boxes)
    out["boxes"] = boxes
    if labels is not None:
        bx1, by1, bx2, by2 = _split(boxes)
        area = tf.squeeze((bx2 - bx1) * (by2 - by1), -1)
        out["labels"] = tf.where(area > 0, labels, tf.cast(-1, labels.dtype))
    return out


def affine(boxes, angle, translate_x, translate_y, scale, shear_x, shear_y, height, width,
           center_x=0.5, center_y=0.5):
    """xyxy boxes (batch, n, 4) moved by Keras's inverse affine matrix of a rotation by
    ``angle`` (degrees), translation, scale and shears about the centre: each box becomes
    the bounds of its four moved corners."""
    dtype = angle.dtype
    angle, shear_x, shear_y = -angle, -shear_x, -shear_y
    cx = center_x * tf.cast(width - 1, dtype)
    cy = center_y * tf.cast(height - 1, dtype)
    rot = angle * (1.0 / 180.0 * math.pi)
    tx = -translate_x * tf.cast(width - 1, dtype)
    ty = -translate_y * tf.cast(height - 1, dtype)
    sx = shear_x * (1.0 / 180.0 * math.pi)
    sy = shear_y * (1.0 / 180.0 * math.pi)
    cos_sy, tan_sx = tf.cos(sy), tf.tan(sx)
    a = tf.cos(rot - sy) / cos_sy
    b = a * tan_sx + tf.sin(rot)
    c = -tf.sin(rot - sy) / cos_sy
    d = tf.cos(rot) - c * tan_sx
    a0, a1, b0, b1 = d * scale, -b * scale, -c * scale, a * scale
    a2 = cx - a0 * (cx + tx) - a1 * (cy + ty)
    b2 = cy - b0 * (cx + tx) - b1 * (cy + ty)
    zero, one = tf.zeros_like(a0), tf.ones_like(a0)
    matrix = tf.reshape(tf.stack([a0, a1, a2, b0, b1, b2, zero, zero, one], -1), [-1, 3, 3])
    boxes = tf.cast(boxes, matrix.dtype)
    n, k = tf.shape(boxes)[0], tf.shape(boxes)[1]
    p = tf.stack([boxes[..., 0], boxes[..., 1], boxes[..., 2], boxes[..., 1], boxes[..., 2],
                  boxes[..., 3], boxes[..., 0], boxes[..., 3]], -1)
    p = tf.reshape(p, tf.stack([n, k, 4, 2]))
    p = tf.concat([p, tf.ones_like(p[..., :1])], -1)
    moved = tf.einsum("bnxy,byz->bnxz", p, tf.transpose(matrix[:, :2, :], [0, 2, 1]))
    return tf.concat([tf.reduce_min(moved, axis=2), tf.reduce_max(moved, axis=2)], -1)
