"""Cases of ``tf.image`` run the same way under TensorFlow (by tools/record_image.py) and
under tapeflow (by tests/ops/test_image_ops.py): ``run(tf, case)`` takes the library module.

A case is ``(key, fn, args, grad)``: ``fn(tf, *tensors)`` calls the op, ``args`` NumPy arrays
(made tensors) or Python values (passed as they are), ``grad`` whether to record the gradient
of ``sum(y * u)`` (``u`` fixed pseudo-random weights; every floating output) with respect to
the first argument.
"""
import pathlib

import numpy as np

_FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops"
# JPEG bytes written once by TensorFlow's encoder (quality 90, RGB; quality 80, grey).
_JPEG = np.array((_FIXTURES / "image_sample.jpg").read_bytes(), dtype=object)
_JPEG_GRAY = np.array((_FIXTURES / "image_sample_gray.jpg").read_bytes(), dtype=object)

_RNG = np.random.default_rng(22)


def _u(*shape, dtype=np.float32):
    return _RNG.uniform(size=shape).astype(dtype)


def _img8(*shape):
    return _RNG.integers(0, 256, size=shape).astype(np.uint8)


CASES = []


def _add(key, fn, args, grad=True):
    CASES.append((key, fn, args, grad))


# --------------------------------------------------------------------------- geometry
_X = _u(4, 5, 3)
_B = _u(2, 4, 5, 3)
_add("crop_3d", lambda tf, x: tf.image.crop_to_bounding_box(x, 1, 2, 2, 3), [_X])
_add("crop_4d", lambda tf, x: tf.image.crop_to_bounding_box(x, 0, 1, 4, 4), [_B])
_add("crop_uint8", lambda tf, x: tf.image.crop_to_bounding_box(x, 1, 1, 2, 2),
     [_img8(4, 5, 3)], grad=False)
_add("crop_tensor_args", lambda tf, x: tf.image.crop_to_bounding_box(
    x, tf.constant(1), tf.constant(0), tf.constant(3), 5), [_X])
for _k, _a in {"oh": (-1, 0, 2, 2), "ow": (0, -1, 2, 2), "th": (0, 0, 0, 2),
               "tw": (0, 0, 2, 0), "h": (3, 0, 2, 2), "w": (0, 4, 2, 2),
               "both": (-1, -1, 2, 2)}.items():
    _add(f"crop_err_{_k}", lambda tf, x, a=_a: tf.image.crop_to_bounding_box(x, *a), [_X])
_add("crop_err_tensor", lambda tf, x: tf.image.crop_to_bounding_box(
    x, tf.constant(-1), 0, 2, 2), [_X])
_add("crop_err_rank2", lambda tf, x: tf.image.crop_to_bounding_box(x, 0, 0, 1, 1),
     [_u(4, 5)])
_add("crop_err_rank5", lambda tf, x: tf.image.crop_to_bounding_box(x, 0, 0, 1, 1),
     [_u(1, 1, 4, 5, 3)])
_add("crop_err_empty", lambda tf, x: tf.image.crop_to_bounding_box(x, 0, 0, 1, 1),
     [_u(0, 5, 3)])
_add("pad_3d", lambda tf, x: tf.image.pad_to_bounding_box(x, 1, 2, 7, 8), [_X])
_add("pad_4d", lambda tf, x: tf.image.pad_to_bounding_box(x, 0, 0, 5, 5), [_B])
_add("pad_int", lambda tf, x: tf.image.pad_to_bounding_box(x, 2, 1, 6, 7),
     [_img8(4, 5, 3)], grad=False)
for _k, _a in {"oh": (-1, 0, 6, 6), "ow": (0, -1, 6, 6), "h": (3, 0, 6, 6),
               "w": (0, 2, 6, 6), "small": (0, 0, 3, 6)}.items():
    _add(f"pad_err_{_k}", lambda tf, x, a=_a: tf.image.pad_to_bounding_box(x, *a), [_X])
_add("pad_err_rank2", lambda tf, x: tf.image.pad_to_bounding_box(x, 0, 0, 6, 6), [_u(4, 5)])
for _th, _tw in ((6, 6), (8, 3), (3, 9), (4, 5), (7, 11)):
    _add(f"resize_with_pad_{_th}x{_tw}",
         lambda tf, x, s=(_th, _tw): tf.image.resize_with_pad(x, *s), [_X])
_add("resize_with_pad_batch", lambda tf, x: tf.image.resize_with_pad(x, 9, 5), [_B])
_add("resize_with_pad_uint8", lambda tf, x: tf.image.resize_with_pad(x, 6, 9),
     [_img8(4, 5, 3)], grad=False)
_add("resize_with_pad_nearest", lambda tf, x: tf.image.resize_with_pad(
    x, 7, 6, method="nearest"), [_img8(4, 5, 3)], grad=False)
_add("resize_with_pad_err_h", lambda tf, x: tf.image.resize_with_pad(x, 0, 6), [_X])
_add("resize_with_pad_err_w", lambda tf, x: tf.image.resize_with_pad(x, 6, 0), [_X])
_add("transpose_3d", lambda tf, x: tf.image.transpose(x), [_X])
_add("transpose_4d", lambda tf, x: tf.image.transpose(x), [_B])
_add("transpose_err", lambda tf, x: tf.image.transpose(x), [_u(4, 5)])

# ---------------------------------------------------------------------------- metrics
_P = _u(2, 6, 7, 3)
_add("psnr", lambda tf, a, b: tf.image.psnr(a, b, 1.0), [_P, _u(2, 6, 7, 3)])
_add("psnr_3d", lambda tf, a, b: tf.image.psnr(a, b, 2.0), [_X, _u(4, 5, 3)])
_add("psnr_uint8", lambda tf, a, b: tf.image.psnr(a, b, 255), [_img8(5, 5, 3), _img8(5, 5, 3)],
     grad=False)
_add("psnr_equal", lambda tf, a: tf.image.psnr(a, a, 1.0), [_X], grad=False)
_add("psnr_broadcast", lambda tf, a, b: tf.image.psnr(a, b, 1.0), [_P, _u(1, 6, 7, 3)])
_add("psnr_err", lambda tf, a, b: tf.image.psnr(a, b, 1.0), [_X, _u(4, 4, 3)])
_S1, _S2 = _u(2, 13, 14, 3), _u(2, 13, 14, 3)
_add("ssim", lambda tf, a, b: tf.image.ssim(a, b, 1.0), [_S1, _S2])
_add("ssim_near", lambda tf, a, b: tf.image.ssim(a, b * 0.9 + 0.05, 1.0), [_S1, _S1])
_add("ssim_small_filter", lambda tf, a, b: tf.image.ssim(
    a, b, 2.0, filter_size=5, filter_sigma=0.8, k1=0.02, k2=0.05), [_u(6, 7, 3), _u(6, 7, 3)])
_add("ssim_map", lambda tf, a, b: tf.image.ssim(
    a, b, 1.0, filter_size=7, return_index_map=True), [_S1, _S2])
_add("ssim_uint8", lambda tf, a, b: tf.image.ssim(a, b, 255, filter_size=5),
     [_img8(8, 9, 3), _img8(8, 9, 3)], grad=False)
_add("ssim_err_small", lambda tf, a, b: tf.image.ssim(a, b, 1.0), [_X, _X])
_add("ssim_err_shape", lambda tf, a, b: tf.image.ssim(a, b, 1.0),
     [_u(12, 12, 3), _u(12, 11, 3)])
_M1, _M2 = _u(1, 23, 26, 2), _u(1, 23, 26, 2)
_add("ssim_multiscale", lambda tf, a, b: tf.image.ssim_multiscale(
    a, b, 1.0, power_factors=(0.2, 0.3, 0.5), filter_size=5), [_M1, _M2])
_add("ssim_multiscale_near", lambda tf, a, b: tf.image.ssim_multiscale(
    a, b * 0.8 + 0.1, 1.0, power_factors=(0.4, 0.6), filter_size=3, filter_sigma=1.0),
    [_M1, _M1])
_add("ssim_multiscale_err", lambda tf, a, b: tf.image.ssim_multiscale(a, b, 1.0),
     [_M1, _M2])
_add("total_variation_3d", lambda tf, x: tf.image.total_variation(x), [_X])
_add("total_variation_4d", lambda tf, x: tf.image.total_variation(x), [_B])
_add("total_variation_int", lambda tf, x: tf.image.total_variation(x),
     [_RNG.integers(-9, 9, (2, 3, 4, 1)).astype(np.int32)], grad=False)
_add("total_variation_err", lambda tf, x: tf.image.total_variation(x), [_u(4, 5)])
_add("image_gradients", lambda tf, x: tf.image.image_gradients(x), [_B])
_add("image_gradients_err", lambda tf, x: tf.image.image_gradients(x), [_X])
_add("sobel_edges", lambda tf, x: tf.image.sobel_edges(x), [_B])
_add("sobel_edges_f64", lambda tf, x: tf.image.sobel_edges(x), [_u(1, 3, 4, 2,
                                                                  dtype=np.float64)])
_add("sobel_edges_err_dtype", lambda tf, x: tf.image.sobel_edges(x),
     [np.ones((1, 4, 5, 3), np.int32)])
_add("sobel_edges_err_rank", lambda tf, x: tf.image.sobel_edges(x), [_X])

# ----------------------------------------------------------------------------- colour
_C = _u(2, 5, 6, 3)
_C[0, 0, 0] = [0.5, 0.5, 0.5]      # grey: hue 0, saturation 0
_C[0, 0, 1] = [0.0, 0.0, 0.0]      # black
_C[0, 0, 2] = [0.9, 0.9, 0.2]      # two channels tied at the maximum
_C[0, 0, 3] = [0.2, 0.7, 0.7]
_CG = _u(2, 5, 6, 3)               # no ties: for gradients
_add("rgb_to_hsv", lambda tf, x: tf.image.rgb_to_hsv(x), [_C], grad=False)
_add("rgb_to_hsv_grad", lambda tf, x: tf.image.rgb_to_hsv(x), [_CG])
_add("rgb_to_hsv_f64", lambda tf, x: tf.image.rgb_to_hsv(x), [_u(4, 3, dtype=np.float64)])
_add("rgb_to_hsv_err_int", lambda tf, x: tf.image.rgb_to_hsv(x), [np.ones((2, 3), np.int32)])
_add("rgb_to_hsv_err_channels", lambda tf, x: tf.image.rgb_to_hsv(x), [_u(2, 4)])
_H = _u(2, 5, 6, 3)
_H[0, 0, 0] = [0.0, 0.3, 0.4]
_H[0, 0, 1] = [1.0, 0.3, 0.4]
_add("hsv_to_rgb", lambda tf, x: tf.image.hsv_to_rgb(x), [_H])
_add("hsv_to_rgb_f64", lambda tf, x: tf.image.hsv_to_rgb(x), [_u(3, 3, dtype=np.float64)])
_add("hsv_to_rgb_err_channels", lambda tf, x: tf.image.hsv_to_rgb(x), [_u(2, 4)])
_add("hsv_roundtrip", lambda tf, x: tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)), [_C],
     grad=False)
for _n in ("rgb_to_yuv", "yuv_to_rgb", "rgb_to_yiq", "yiq_to_rgb"):
    _add(_n, lambda tf, x, n=_n: getattr(tf.image, n)(x), [_C])
    _add(f"{_n}_f64", lambda tf, x, n=_n: getattr(tf.image, n)(x), [_u(3, 3, dtype=np.float64)])
_add("rgb_to_yuv_err_int", lambda tf, x: tf.image.rgb_to_yuv(x), [np.ones((2, 3), np.int32)])
_add("rgb_to_yuv_err_channels", lambda tf, x: tf.image.rgb_to_yuv(x), [_u(2, 2, 4)])
for _f in (0.0, 0.4, 1.7, 5.0):
    _add(f"adjust_saturation_{_f}", lambda tf, x, f=_f: tf.image.adjust_saturation(x, f), [_C])
_add("adjust_saturation_uint8", lambda tf, x: tf.image.adjust_saturation(x, 0.6),
     [_img8(3, 4, 3)])
_add("adjust_saturation_f64", lambda tf, x: tf.image.adjust_saturation(x, 1.3),
     [_u(3, 4, 3, dtype=np.float64)])
_add("adjust_saturation_tensor", lambda tf, x: tf.image.adjust_saturation(
    x, tf.constant(0.5)), [_C], grad=False)
_add("adjust_saturation_err_channels", lambda tf, x: tf.image.adjust_saturation(x, 0.5),
     [_u(2, 2, 4)])
_add("adjust_saturation_err_rank", lambda tf, x: tf.image.adjust_saturation(x, 0.5), [_u(3)])
for _d in (-1.0, -0.7, -0.2, 0.0, 0.13, 0.5, 0.95):
    _add(f"adjust_hue_{_d}", lambda tf, x, d=_d: tf.image.adjust_hue(x, d), [_C])
_add("adjust_hue_uint8", lambda tf, x: tf.image.adjust_hue(x, 0.3), [_img8(3, 4, 3)])
_add("adjust_hue_f64", lambda tf, x: tf.image.adjust_hue(x, -0.4),
     [_u(3, 4, 3, dtype=np.float64)])
_add("adjust_hue_err_delta", lambda tf, x: tf.image.adjust_hue(x, 1.1), [_C])
_add("adjust_hue_err_channels", lambda tf, x: tf.image.adjust_hue(x, 0.1), [_u(2, 2, 4)])
_add("adjust_hue_err_rank", lambda tf, x: tf.image.adjust_hue(x, 0.1), [_u(3)])
_add("adjust_gamma", lambda tf, x: tf.image.adjust_gamma(x, 0.7, 1.3), [_C])
_add("adjust_gamma_default", lambda tf, x: tf.image.adjust_gamma(x), [_C])
_add("adjust_gamma_uint8", lambda tf, x: tf.image.adjust_gamma(x, 0.5, 2), [_img8(3, 4, 3)],
     grad=False)
_add("adjust_gamma_f64", lambda tf, x: tf.image.adjust_gamma(x, 2.5),
     [_u(3, 4, 3, dtype=np.float64)])
_add("adjust_gamma_err", lambda tf, x: tf.image.adjust_gamma(x, -1), [_C])
_add("stateless_random_hue", lambda tf, x: tf.image.stateless_random_hue(
    x, 0.3, seed=[3, 4]), [_C], grad=False)
_add("stateless_random_saturation", lambda tf, x: tf.image.stateless_random_saturation(
    x, 0.3, 1.9, seed=[5, 6]), [_C], grad=False)
_add("random_hue_err", lambda tf, x: tf.image.random_hue(x, 0.6), [_C])
_add("random_hue_err_neg", lambda tf, x: tf.image.random_hue(x, -0.1), [_C])
_add("stateless_random_hue_err", lambda tf, x: tf.image.stateless_random_hue(
    x, 0.6, [1, 2]), [_C])
_add("random_saturation_err", lambda tf, x: tf.image.random_saturation(x, 0.6, 0.5), [_C])
_add("random_saturation_err_neg", lambda tf, x: tf.image.random_saturation(x, -0.5, 0.5),
     [_C])
_add("stateless_random_saturation_err", lambda tf, x: tf.image.stateless_random_saturation(
    x, 0.6, 0.5, [1, 2]), [_C])

# ------------------------------------------------------------------------------ boxes
def _boxes(n, spread=1.0):
    c = _RNG.uniform(0, spread, size=(n, 2))
    hw = _RNG.uniform(0.1, 0.5, size=(n, 2))
    b = np.concatenate([c, c + hw], axis=1).astype(np.float32)
    return b


_NB = _boxes(30)
_NB[3] = _NB[3][[2, 3, 0, 1]]          # corners given the other way round
_NS = _RNG.permutation(30).astype(np.float32) / 30 + np.float32(0.01)
for _t, _st in ((0.5, float("-inf")), (0.2, 0.3), (0.0, float("-inf")), (1.0, 0.5)):
    _add(f"nms_{_t}_{_st}", lambda tf, b, s, t=_t, st=_st: tf.image.non_max_suppression(
        b, s, 20, t, st), [_NB, _NS], grad=False)
_add("nms_max3", lambda tf, b, s: tf.image.non_max_suppression(b, s, 3), [_NB, _NS],
     grad=False)
_add("nms_ties", lambda tf, b, s: tf.image.non_max_suppression(b, s, 10, 0.4),
     [_NB[:8], np.array([0.5, 0.7, 0.5, 0.7, 0.1, 0.5, 0.9, 0.7], np.float32)], grad=False)
_add("nms_err_iou", lambda tf, b, s: tf.image.non_max_suppression(b, s, 3, 1.5), [_NB, _NS],
     grad=False)
_add("nms_err_boxes", lambda tf, b, s: tf.image.non_max_suppression(b, s, 3),
     [_NB[:, :3], _NS], grad=False)
_add("nms_err_scores", lambda tf, b, s: tf.image.non_max_suppression(b, s, 3),
     [_NB, _NS[:5]], grad=False)
for _sg in (0.0, 0.3, 1.0):
    _add(f"nms_with_scores_{_sg}", lambda tf, b, s, sg=_sg:
         tf.image.non_max_suppression_with_scores(b, s, 25, 0.5, 0.1, soft_nms_sigma=sg),
         [_NB, _NS], grad=False)
_OV = _RNG.uniform(size=(12, 12)).astype(np.float32)
_add("nms_overlaps", lambda tf, o, s: tf.image.non_max_suppression_overlaps(o, s, 8, 0.6, 0.1),
     [_OV, _NS[:12]], grad=False)
_add("nms_padded", lambda tf, b, s: tf.image.non_max_suppression_padded(
    b, s, 15, 0.4, 0.2, pad_to_max_output_size=True), [_NB, _NS], grad=False)
_add("nms_padded_unpadded", lambda tf, b, s: tf.image.non_max_suppression_padded(
    b, s, 15, 0.4), [_NB, _NS], grad=False)
_add("nms_padded_batch", lambda tf, b, s: tf.image.non_max_suppression_padded(
    b, s, 6, 0.5, pad_to_max_output_size=True),
    [np.stack([_NB[:10], _NB[10:20]]), np.stack([_NS[:10], _NS[10:20]])], grad=False)
_add("nms_padded_err", lambda tf, b, s: tf.image.non_max_suppression_padded(b, s, 6),
     [np.stack([_NB[:10], _NB[10:20]]), np.stack([_NS[:10], _NS[10:20]])], grad=False)
_CB = np.stack([_boxes(12, 1.2) - np.float32(0.1) for _ in range(2 * 3)]).reshape(
    2, 3, 12, 4).transpose(0, 2, 1, 3).copy()
_CS = _RNG.permutation(2 * 12 * 3).astype(np.float32).reshape(2, 12, 3) / 72
_add("combined_nms", lambda tf, b, s: tf.image.combined_non_max_suppression(
    b, s, 4, 7, 0.5, 0.1), [_CB, _CS], grad=False)
_add("combined_nms_shared", lambda tf, b, s: tf.image.combined_non_max_suppression(
    b, s, 3, 20, 0.3, clip_boxes=False), [_CB[:, :, :1], _CS], grad=False)
_add("combined_nms_pad", lambda tf, b, s: tf.image.combined_non_max_suppression(
    b, s, 2, 20, 0.5, pad_per_class=True), [_CB, _CS], grad=False)
_add("combined_nms_err_q", lambda tf, b, s: tf.image.combined_non_max_suppression(
    b, s, 2, 20), [_CB[:, :, :2], _CS], grad=False)
_add("combined_nms_err_iou", lambda tf, b, s: tf.image.combined_non_max_suppression(
    b, s, 2, 20, 1.5), [_CB, _CS], grad=False)
_DI = _u(2, 9, 11, 3)
_DB = np.array([[[0.1, 0.2, 0.7, 0.9], [-0.2, 0.5, 0.5, 1.3], [0.6, 0.1, 0.3, 0.4],
                 [1.2, 0, 1.5, 1], [0, 0, 1, 1]],
                [[0.3, 0.3, 0.6, 0.6], [0.0, 0.1, 0.9, 0.2], [0.5, -0.5, 0.8, 0.5],
                 [0.2, 0.2, 0.25, 0.95], [0.45, 0.0, 0.55, 1.0]]], np.float32)
_add("draw_boxes_default", lambda tf, x, b: tf.image.draw_bounding_boxes(x, b, None),
     [_DI, _DB], grad=False)
_add("draw_boxes_gray", lambda tf, x, b: tf.image.draw_bounding_boxes(x, b, None),
     [_DI[..., :1], _DB], grad=False)
_add("draw_boxes_colors", lambda tf, x, b, c: tf.image.draw_bounding_boxes(x, b, c),
     [np.concatenate([_DI, _DI[..., :1]], -1), _DB,
      np.array([[0.2, 0.4, 0.6, 0.8], [1, 0, 0.5, 0.25]], np.float32)], grad=False)
_add("draw_boxes_err_depth", lambda tf, x, b: tf.image.draw_bounding_boxes(x, b, None),
     [_u(2, 4, 4, 2), _DB], grad=False)
_CR_IMG = _u(2, 7, 9, 3)
_CR_BOX = np.array([[0.1, 0.2, 0.8, 0.7], [0.9, 0.1, 0.2, 0.95], [-0.2, 0.3, 0.5, 1.2],
                    [0.33, 0.41, 0.33, 0.77]], np.float32)
_CR_IDX = np.array([0, 1, 1, 0], np.int32)
_add("crop_and_resize", lambda tf, x, b, i: tf.image.crop_and_resize(x, b, i, [5, 4]),
     [_CR_IMG, _CR_BOX, _CR_IDX])
_add("crop_and_resize_boxes_grad", lambda tf, b, x, i: tf.image.crop_and_resize(
    x, b, i, [3, 6], extrapolation_value=0.5), [_CR_BOX, _CR_IMG, _CR_IDX])
_add("crop_and_resize_one", lambda tf, x, b, i: tf.image.crop_and_resize(x, b, i, [1, 1]),
     [_CR_IMG, _CR_BOX, _CR_IDX])
_add("crop_and_resize_nearest", lambda tf, x, b, i: tf.image.crop_and_resize(
    x, b, i, [4, 5], method="nearest", extrapolation_value=-1.0), [_CR_IMG, _CR_BOX, _CR_IDX],
    grad=False)
_add("crop_and_resize_uint8", lambda tf, x, b, i: tf.image.crop_and_resize(x, b, i, [3, 3]),
     [_img8(2, 5, 6, 3), _CR_BOX, _CR_IDX], grad=False)
_add("crop_and_resize_err_index", lambda tf, x, b, i: tf.image.crop_and_resize(
    x, b, i, [3, 3]), [_CR_IMG, _CR_BOX, np.array([0, 2, 1, 0], np.int32)], grad=False)
_add("crop_and_resize_err_size", lambda tf, x, b, i: tf.image.crop_and_resize(
    x, b, i, [0, 3]), [_CR_IMG, _CR_BOX, _CR_IDX], grad=False)
_add("crop_and_resize_err_boxes", lambda tf, x, b, i: tf.image.crop_and_resize(
    x, b, i, [2, 3]), [_CR_IMG, _CR_BOX[:, :3], _CR_IDX], grad=False)

# ------------------------------------------------------------------------------- JPEG
_add("is_jpeg", lambda tf, c: tf.image.is_jpeg(c), [_JPEG], grad=False)
_add("is_jpeg_vector", lambda tf, c: tf.image.is_jpeg(c),
     [np.array([b"\xff\xd8\xff\xe0", b"\x89PNG", b"", b"\xff\xd8"], dtype=object)],
     grad=False)
_add("extract_jpeg_shape", lambda tf, c: tf.image.extract_jpeg_shape(c), [_JPEG], grad=False)
_add("extract_jpeg_shape_gray_int64", lambda tf, c: tf.image.extract_jpeg_shape(
    c, output_type=tf.int64), [_JPEG_GRAY], grad=False)
_add("extract_jpeg_shape_err", lambda tf, c: tf.image.extract_jpeg_shape(c),
     [np.array(b"not a jpeg", dtype=object)], grad=False)
# TensorFlow decodes with the fast integer DCT, tapeflow with the accurate one (LEVELS)
_add("decode_and_crop_jpeg", lambda tf, c: tf.image.decode_and_crop_jpeg(
    c, [3, 5, 10, 12], dct_method="INTEGER_ACCURATE"), [_JPEG], grad=False)
_add("decode_and_crop_jpeg_gray", lambda tf, c: tf.image.decode_and_crop_jpeg(
    c, [0, 0, 24, 7], channels=1, dct_method="INTEGER_ACCURATE"), [_JPEG_GRAY], grad=False)
_add("decode_and_crop_jpeg_default", lambda tf, c: tf.image.decode_and_crop_jpeg(
    c, [3, 5, 10, 12]), [_JPEG], grad=False)
_add("decode_and_crop_jpeg_err_window", lambda tf, c: tf.image.decode_and_crop_jpeg(
    c, [20, 5, 10, 12]), [_JPEG], grad=False)
_JQ = _img8(16, 24, 3)
_JQ_SMOOTH = np.stack(list(np.meshgrid(np.arange(16) * 10, np.arange(24) * 7, indexing="ij"))
                      + [np.full((16, 24), 90)], -1).astype(np.uint8)
_add("adjust_jpeg_quality_uint8", lambda tf, x: tf.image.adjust_jpeg_quality(x, 75),
     [_JQ_SMOOTH], grad=False)
_add("adjust_jpeg_quality_float", lambda tf, x: tf.image.adjust_jpeg_quality(x, 40),
     [_JQ_SMOOTH.astype(np.float32) / 255], grad=False)
_add("adjust_jpeg_quality_gray", lambda tf, x: tf.image.adjust_jpeg_quality(x, 90),
     [_JQ_SMOOTH[..., :1]], grad=False)
_add("adjust_jpeg_quality_noise", lambda tf, x: tf.image.adjust_jpeg_quality(x, 95),
     [_JQ], grad=False)
_add("adjust_jpeg_quality_err_rank", lambda tf, x: tf.image.adjust_jpeg_quality(x, 75),
     [_img8(2, 8, 8, 3)], grad=False)
_add("stateless_random_jpeg_quality", lambda tf, x: tf.image.stateless_random_jpeg_quality(
    x, 30, 90, seed=[7, 8]), [_JQ_SMOOTH], grad=False)
_add("random_jpeg_quality_err_range", lambda tf, x: tf.image.random_jpeg_quality(x, 10, 101),
     [_JQ], grad=False)
_add("random_jpeg_quality_err_order", lambda tf, x: tf.image.random_jpeg_quality(x, 50, 50),
     [_JQ], grad=False)
_add("stateless_random_jpeg_quality_err", lambda tf, x: tf.image.stateless_random_jpeg_quality(
    x, -1, 50, [1, 2]), [_JQ], grad=False)

# ------------------------------------------------------- glimpses, distorted boxes
_G = _u(3, 8, 9, 2)
_GO = np.array([[0.1, -0.3], [-0.9, 0.8], [0.5, 0.95]], np.float32)
for _c, _nz in ((True, True), (False, True), (True, False), (False, False)):
    _add(f"extract_glimpse_c{int(_c)}_n{int(_nz)}", lambda tf, x, o, c=_c, nz=_nz:
         tf.image.extract_glimpse(x, [4, 3], o * (1 if nz else 5), centered=c,
                                  normalized=nz, noise="zero"), [_G, _GO], grad=False)
_add("extract_glimpse_inside_uniform", lambda tf, x, o: tf.image.extract_glimpse(
    x, [3, 3], o), [_G, np.array([[0.0, 0.0], [0.1, -0.2], [-0.3, 0.1]], np.float32)],
    grad=False)
_add("extract_glimpse_err_noise", lambda tf, x, o: tf.image.extract_glimpse(
    x, [2, 2], o, noise="bad"), [_G, _GO], grad=False)
_add("extract_glimpse_err_rank", lambda tf, x, o: tf.image.extract_glimpse(x, [2, 2], o),
     [_G[0], _GO[:1]], grad=False)
_add("extract_glimpse_err_size", lambda tf, x, o: tf.image.extract_glimpse(x, [2, 2, 1], o),
     [_G, _GO], grad=False)
_add("extract_glimpse_err_offsets", lambda tf, x, o: tf.image.extract_glimpse(x, [2, 2], o),
     [_G, _GO[:2]], grad=False)
_add("extract_glimpse_err_offsets_cols", lambda tf, x, o: tf.image.extract_glimpse(
    x, [2, 2], o), [_G, np.zeros((3, 3), np.float32)], grad=False)
_SB = np.array([[[0.1, 0.2, 0.5, 0.7]]], np.float32)
for _k, _kw in {"size": {}, "covered": {"min_object_covered": -1.0},
                "area2": {"area_range": [0.5]}, "ar2": {"aspect_ratio_range": [0.5, 0.4, 1]},
                "area_max": {"area_range": [0.5, 1.5]}, "attempts": {"max_attempts": 0}
                }.items():
    _add(f"sample_distorted_err_{_k}", lambda tf, b, k=_k, kw=_kw:
         tf.image.sample_distorted_bounding_box([10, 12] if k == "size" else [10, 12, 3], b,
                                                seed=3, **kw), [_SB], grad=False)
_add("sample_distorted_err_no_boxes", lambda tf, b: tf.image.sample_distorted_bounding_box(
    [10, 12, 3], b), [np.zeros((1, 0, 4), np.float32)], grad=False)
_add("sample_distorted_err_rank", lambda tf, b: tf.image.sample_distorted_bounding_box(
    [10, 12, 3], b), [np.zeros((1, 4), np.float32)], grad=False)

# ------------------------------------------------------------------------------- WebP
for _f in ("lossless", "rgba", "lossy"):   # written by Pillow's libwebp
    _w = np.array((_FIXTURES / f"image_sample_{_f}.webp").read_bytes(), dtype=object)
    for _ch in (0, 3, 4, 1):
        _add(f"decode_webp_{_f}_{_ch}", lambda tf, c, ch=_ch: tf.image.decode_webp(
            c, channels=ch), [_w], grad=False)
_add("decode_webp_err_dtype", lambda tf, c: tf.image.decode_webp(c, dtype=tf.float32),
     [_w], grad=False)
_add("decode_webp_err_bytes", lambda tf, c: tf.image.decode_webp(c),
     [np.array(b"RIFF0000WEBPVP8 ", dtype=object)], grad=False)
_add("decode_webp_of_jpeg", lambda tf, c: tf.image.decode_webp(c), [_JPEG], grad=False)


def _weights(shape, salt):
    rng = np.random.default_rng(1000 + salt)
    return rng.standard_normal(shape)


# --------------------------------------------------- resize: bicubic and area kernels
_RZ = _u(2, 5, 7, 3)
_RZ1 = (_u(1, 9, 4, 1) * 4 - 2).astype(np.float32)
for _m in ("bicubic", "area"):
    for _size in ((3, 4), (8, 11), (5, 7), (1, 1), (13, 2), (2, 20)):
        _add(f"resize_{_m}_{_size[0]}x{_size[1]}",
             lambda tf, x, s=_size, m=_m: tf.image.resize(x, s, method=m), [_RZ])
    _add(f"resize_{_m}_tall", lambda tf, x, m=_m: tf.image.resize(x, [4, 9], method=m),
         [_RZ1])
    _add(f"resize_{_m}_3d", lambda tf, x, m=_m: tf.image.resize(x, [6, 3], method=m),
         [_RZ[0]])
    _add(f"resize_{_m}_uint8", lambda tf, x, m=_m: tf.image.resize(x, [7, 5], method=m),
         [_img8(1, 4, 6, 2)], grad=False)
    _add(f"resize_{_m}_float64", lambda tf, x, m=_m: tf.image.resize(x, [3, 8], method=m),
         [_RZ.astype(np.float64)])
    _add(f"resize_{_m}_aspect", lambda tf, x, m=_m: tf.image.resize(
        x, [10, 10], method=m, preserve_aspect_ratio=True), [_RZ])

for _m in ("lanczos3", "lanczos5", "gaussian", "mitchellcubic", "bilinear", "bicubic"):
    for _aa in (False, True) if _m in ("bilinear", "bicubic") else (False, True):
        if _m in ("bilinear", "bicubic") and not _aa:
            continue
        for _size in ((3, 4), (8, 11), (2, 20), (1, 1)):
            _add(f"resize_{_m}_aa{int(_aa)}_{_size[0]}x{_size[1]}",
                 lambda tf, x, s=_size, m=_m, a=_aa: tf.image.resize(x, s, method=m,
                                                                    antialias=a), [_RZ])
    _add(f"resize_st_{_m}_float64", lambda tf, x, m=_m: tf.image.resize(
        x, [3, 9], method=m, antialias=True), [_RZ.astype(np.float64)])
    _add(f"resize_st_{_m}_uint8", lambda tf, x, m=_m: tf.image.resize(
        x, [3, 9], method=m, antialias=True), [_img8(1, 4, 6, 2)], grad=False)
_add("resize_unknown_method", lambda tf, x: tf.image.resize(x, [3, 3], method="cubic"), [_RZ])
_add("resize_nearest_antialias", lambda tf, x: tf.image.resize(
    x, [3, 4], method="nearest", antialias=True), [_RZ])
_add("resize_area_antialias", lambda tf, x: tf.image.resize(
    x, [3, 4], method="area", antialias=True), [_RZ], grad=False)


def loss(tf, y):
    ys = y if isinstance(y, (tuple, list)) else [y]
    total = None
    for i, t in enumerate(ys):
        if not t.dtype.is_floating:
            continue
        term = tf.reduce_sum(t * tf.constant(_weights(t.shape, i), t.dtype))
        total = term if total is None else total + term
    return total


def run(tf, case):
    """Run ``case`` through library ``tf``: a dict of NumPy results (``value`` a list, one
    array per output), or the error class and first message line."""
    key, fn, args, grad = case
    tensors = [tf.constant(a) if isinstance(a, (np.ndarray, np.generic)) else a for a in args]
    try:
        y = fn(tf, *tensors)
    except Exception as exc:  # noqa: BLE001 - the class is the answer
        return {"error": type(exc).__name__, "message": str(exc).split("\n")[0]}
    ys = y if isinstance(y, (tuple, list)) else [y]
    out = {"value": [np.asarray(t.numpy()) for t in ys]}
    if not grad:
        return out
    x = tf.Variable(tensors[0])
    try:
        with tf.GradientTape() as tape:
            l1 = loss(tf, fn(tf, x, *tensors[1:]))
        g = tape.gradient(l1, x)
    except Exception as exc:  # noqa: BLE001 - TF registers no gradient for some ops
        out.update(grad_error=type(exc).__name__, grad_message=str(exc).split("\n")[0])
        return out
    out["grad"] = None if g is None else np.asarray(tf.convert_to_tensor(g).numpy())
    return out
