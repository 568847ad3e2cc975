"""keras.utils array_to_img / img_to_array / save_img / load_img (Pillow, the image extra)."""
import io
import sys

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("PIL")
utils = tf.keras.utils


def test_array_to_img_scales_to_0_255_like_keras():
    x = np.array([[[-1.0], [0.0]], [[1.0], [0.5]]], np.float32)
    img = utils.array_to_img(x)
    assert img.mode == "L" and img.size == (2, 2)
    # (x - min) / (max - min) * 255, truncated to uint8.
    assert np.asarray(img).ravel().tolist() == [0, 127, 255, 191]
    assert np.asarray(utils.array_to_img(x * 0 + 7.0)).ravel().tolist() == [0, 0, 0, 0]
    rgb = utils.array_to_img(tf.constant(np.full((3, 2, 3), 200.0, np.float32)), scale=False)
    assert rgb.mode == "RGB" and rgb.getpixel((1, 2)) == (200, 200, 200)
    assert utils.array_to_img(np.zeros((2, 2, 4))).mode == "RGBA"
    assert utils.array_to_img(np.full((2, 2, 1), 300.0), scale=False).mode == "I"


def test_array_to_img_rejects_bad_shapes():
    with pytest.raises(ValueError, match=r"rank 3 \(single image\). Got array with shape: "
                                         r"\(2, 2\)"):
        utils.array_to_img(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="Unsupported channel number: 2"):
        utils.array_to_img(np.zeros((2, 2, 2)))


def test_img_to_array_round_trip_and_channels_first():
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3) * 10
    back = utils.img_to_array(utils.array_to_img(x, scale=False))
    assert back.dtype == np.float32 and back.shape == (2, 4, 3)
    np.testing.assert_array_equal(back, x)
    gray = utils.img_to_array(utils.array_to_img(x[..., :1], scale=False), "channels_first")
    assert gray.shape == (1, 2, 4)
    with pytest.raises(ValueError, match="Unsupported image shape"):
        utils.img_to_array(np.zeros((1, 1, 1, 1)))


def test_save_img_and_load_img(tmp_path):
    x = np.random.default_rng(0).integers(0, 256, (6, 8, 3)).astype(np.float32)
    path = tmp_path / "x.png"
    utils.save_img(path, x, scale=False)
    img = utils.load_img(path)
    np.testing.assert_array_equal(utils.img_to_array(img), x)
    assert utils.load_img(str(path), color_mode="grayscale").mode == "L"
    small = utils.load_img(path, target_size=(3, 4))
    # PIL's nearest neighbour samples pixel centres: rows and columns 1, 3, 5, ...
    np.testing.assert_array_equal(utils.img_to_array(small), x[1::2, 1::2])
    assert utils.load_img(path, target_size=(6, 6), keep_aspect_ratio=True).size == (6, 6)
    buf = io.BytesIO()
    with pytest.warns(UserWarning, match="JPEG format does not support RGBA"):
        utils.save_img(buf, np.zeros((2, 2, 4)), file_format="jpg")
    buf.seek(0)
    assert utils.load_img(buf).mode == "RGB"
    with pytest.raises(ValueError, match="color_mode must be"):
        utils.load_img(path, color_mode="cmyk")
    with pytest.raises(TypeError, match="path should be path-like"):
        utils.load_img(3)


def test_missing_pillow_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r'pip install "tapeflow\[image\]"'):
        utils.array_to_img(np.zeros((2, 2, 1)))
