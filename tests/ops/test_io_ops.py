"""tf.io / tf.image / tf.audio codecs and files against TensorFlow 2.21's recorded answers
(tools/record_io.py -> tests/fixtures/ops/io.json): TF-encoded bytes decode to TF's pixels and
samples, tapeflow's encoders give TF's WAV bytes and PNGs that decode to the same pixels, and
errors have TF's classes and messages."""
import base64
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("PIL")
FIXTURE = json.loads((pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops" /
                      "io.json").read_text())


def arr(rec):
    return np.array(rec["values"], dtype=rec["dtype"]).reshape(rec["shape"])


def raw(rec):
    return base64.b64decode(rec["bytes"])


def same(got, want):
    got = got.numpy() if hasattr(got, "numpy") else got
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                 want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("key", sorted(FIXTURE["png"]))
def test_decode_png_of_tensorflow_bytes(key):
    rec = FIXTURE["png"][key]
    for option, want in rec["decoded"].items():
        ch, dt = option.split("/")
        same(tf.io.decode_png(raw(rec), channels=int(ch), dtype=getattr(tf, dt)), arr(want))


@pytest.mark.parametrize("key", sorted(FIXTURE["png"]))
def test_encode_png_decodes_to_the_same_pixels(key):
    img = arr(FIXTURE["png"][key]["image"])
    data = tf.io.encode_png(img)
    assert data.dtype == tf.string and data.shape == ()
    assert data.numpy()[:8] == b"\x89PNG\r\n\x1a\n"
    same(tf.io.decode_png(data, dtype=tf.uint16 if img.dtype == np.uint16 else tf.uint8), img)


@pytest.mark.parametrize("key", sorted(FIXTURE["jpeg"]))
def test_decode_jpeg_equals_tensorflows_accurate_dct(key):
    rec = FIXTURE["jpeg"][key]
    for ch, want in rec["decoded"].items():
        same(tf.io.decode_jpeg(raw(rec), channels=int(ch)), arr(want))
        # TF's default (fast) DCT differs by a few levels only (docs/ops.md).
        fast = arr(rec["default_decoded"][ch]).astype(int)
        assert np.abs(tf.io.decode_jpeg(raw(rec), channels=int(ch)).numpy() - fast).max() <= 12


def test_encode_jpeg_round_trip_keeps_the_picture():
    smooth = (np.add.outer(np.arange(24), np.arange(32))[..., None] * [4, 3, 2]).astype(np.uint8)
    back = tf.io.decode_jpeg(tf.io.encode_jpeg(smooth, quality=95)).numpy().astype(int)
    assert back.shape == smooth.shape and np.abs(back - smooth).mean() < 2


def test_gif_bmp_and_decode_image():
    gif, bmp = FIXTURE["other"]["gif"], FIXTURE["other"]["bmp"]
    same(tf.io.decode_gif(raw(gif)), arr(gif["decoded"]))
    same(tf.io.decode_image(raw(gif)), arr(gif["image"]))
    same(tf.io.decode_image(raw(gif), expand_animations=False), arr(gif["first"]))
    same(tf.io.decode_bmp(raw(bmp)), arr(bmp["decoded"]))
    same(tf.io.decode_bmp(raw(bmp), channels=4), arr(bmp["decoded4"]))
    rec = FIXTURE["other"]["decode_image_png_float"]
    got = tf.image.decode_image(raw(rec), dtype=tf.float32).numpy()
    # TF's kernel rounds a few quotients v/255 the other way (1 ulp; the division here is
    # correctly rounded).
    np.testing.assert_array_max_ulp(got, arr(rec["decoded"]), maxulp=1)


def test_wav_bytes_and_samples_equal_tensorflows():
    rec = FIXTURE["wav"]
    assert tf.audio.encode_wav(arr(rec["audio"]), rec["rate"]).numpy() == raw(rec)
    for option, want in rec["decoded"].items():
        ch, n = (int(v) for v in option.split("/"))
        audio, rate = tf.audio.decode_wav(raw(rec), desired_channels=ch, desired_samples=n)
        same(audio, arr(want["audio"]))
        assert rate.dtype == tf.int32 and int(rate) == want["rate"]
    mono = rec["mono"]
    assert tf.audio.encode_wav(arr(rec["audio"])[:, :1], 8000).numpy() == raw(mono)
    same(tf.audio.decode_wav(raw(mono), desired_channels=2).audio, arr(mono["stereo"]))


def _error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return {"error": type(info.value).__name__, "message": str(info.value).split("\n")[0]}


def test_errors_are_tensorflows():
    png = raw(FIXTURE["other"]["decode_image_png_float"])
    calls = {
        "decode_png_garbage": lambda: tf.io.decode_png(b"garbage"),
        "decode_png_channels": lambda: tf.io.decode_png(png, channels=2),
        "read_file_missing": lambda: tf.io.read_file("/nonexistent/dir/x.txt"),
        "decode_wav_garbage": lambda: tf.audio.decode_wav(b"RIFFxxxx"),
        "gfile_remove_missing": lambda: tf.io.gfile.remove("/nonexistent/dir/x.txt"),
        "gfile_listdir_missing": lambda: tf.io.gfile.listdir("/nonexistent/dir"),
    }
    assert set(calls) == set(FIXTURE["errors"])
    for key, fn in calls.items():
        assert _error(fn) == FIXTURE["errors"][key], key


def test_read_and_write_files_eagerly_and_in_a_traced_function(tmp_path):
    path = str(tmp_path / "a.bin")
    tf.io.write_file(path, b"first")
    assert tf.io.read_file(path).numpy() == b"first"

    @tf.function
    def roundtrip(p, contents):
        tf.io.write_file(p, contents)
        return tf.strings.length(tf.io.read_file(p))

    assert int(roundtrip(tf.constant(path), tf.constant(b"second!"))) == 7
    # The replay writes and reads again: nothing was baked in at trace time.
    assert int(roundtrip(tf.constant(path), tf.constant(b"3rd"))) == 3
    assert open(path, "rb").read() == b"3rd"


def test_dataset_map_decodes_each_file(tmp_path):
    imgs = [np.full((2, 3, 3), v, np.uint8) for v in (10, 200)]
    paths = []
    for i, img in enumerate(imgs):
        p = str(tmp_path / f"{i}.png")
        tf.io.write_file(p, tf.io.encode_png(img))
        paths.append(p)
    ds = tf.data.Dataset.from_tensor_slices(paths).map(
        lambda p: tf.io.decode_png(tf.io.read_file(p)))
    got = [x.numpy() for x in ds]
    for g, img in zip(got, imgs, strict=True):
        np.testing.assert_array_equal(g, img)


def test_gfile(tmp_path):
    gf = tf.io.gfile
    d = str(tmp_path / "a" / "b")
    gf.makedirs(d)
    gf.makedirs(d)   # exists: fine
    assert gf.isdir(d) and gf.exists(d)
    with gf.GFile(gf.join(d, "x.txt"), "w") as f:
        f.write("hello\nworld\n")
    with gf.GFile(gf.join(d, "x.txt")) as f:
        assert f.readlines() == ["hello\n", "world\n"]
    assert gf.stat(gf.join(d, "x.txt")).length == 12
    gf.copy(gf.join(d, "x.txt"), gf.join(d, "y.txt"))
    with pytest.raises(tf.errors.AlreadyExistsError):
        gf.copy(gf.join(d, "x.txt"), gf.join(d, "y.txt"))
    gf.rename(gf.join(d, "y.txt"), gf.join(d, "z.txt"))
    assert sorted(gf.listdir(d)) == ["x.txt", "z.txt"]
    assert gf.glob(str(tmp_path / "a" / "*" / "*.txt")) == [gf.join(d, "x.txt"),
                                                            gf.join(d, "z.txt")]
    assert [w[0] for w in gf.walk(str(tmp_path / "a"))] == [str(tmp_path / "a"), d]
    gf.remove(gf.join(d, "z.txt"))
    gf.rmtree(str(tmp_path / "a"))
    assert not gf.exists(d)
    with pytest.raises(tf.errors.NotFoundError):
        with gf.GFile(str(tmp_path / "missing")) as f:
            f.read()
    with pytest.raises(tf.errors.UnimplementedError):
        gf.exists("gs://bucket/x")
