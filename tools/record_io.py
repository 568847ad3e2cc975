"""Record TensorFlow's answers for tf.io/tf.image/tf.audio codecs into
tests/fixtures/ops/io.json: TF-encoded PNG/JPEG/WAV bytes (and Pillow-made GIF/BMP), TF's
decoded pixels and samples for each option, and TF's error classes and messages.

Run with TensorFlow and Pillow installed (tapeflow is never imported here):

    /work/tfenv/bin/python tools/record_io.py
"""
import base64
import io
import json
import os
import re

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from PIL import Image  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "ops", "io.json")
_PREFIX = re.compile(r"^\{\{function_node [^}]*\}\} ")


def b64(data):
    return base64.b64encode(data).decode()


def arr(a):
    a = np.asarray(a)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": a.ravel().tolist()}


def error(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class is the answer
        return {"error": type(exc).__name__, "message": _PREFIX.sub("", str(exc).split("\n")[0])}
    raise AssertionError("no error")


def main():
    rng = np.random.default_rng(11)
    images = {
        "rgb": rng.integers(0, 256, (6, 7, 3), dtype=np.uint8),
        "rgba": rng.integers(0, 256, (4, 5, 4), dtype=np.uint8),
        "gray": rng.integers(0, 256, (4, 5, 1), dtype=np.uint8),
        "gray16": rng.integers(0, 65536, (3, 4, 1), dtype=np.uint16),
    }
    out = {"tensorflow": tf.__version__, "png": {}, "jpeg": {}, "other": {}, "wav": {},
           "errors": {}}
    for key, img in images.items():
        data = tf.io.encode_png(img).numpy()
        rec = {"image": arr(img), "bytes": b64(data), "decoded": {}}
        for ch in (0, 1, 3, 4):
            for dt in ("uint8", "uint16"):
                d = tf.io.decode_png(data, channels=ch, dtype=getattr(tf, dt))
                rec["decoded"][f"{ch}/{dt}"] = arr(d.numpy())
        out["png"][key] = rec
    smooth = (np.add.outer(np.arange(16), np.arange(16))[..., None] * [8, 5, 3]).astype(np.uint8)
    for key, img, kw in (("rgb", smooth, {"quality": 90}),
                         ("rgb_444", smooth, {"quality": 80, "chroma_downsampling": False}),
                         ("gray", smooth[..., :1], {"quality": 95})):
        data = tf.io.encode_jpeg(img, **kw).numpy()
        rec = {"bytes": b64(data), "decoded": {}, "default_decoded": {}}
        for ch in (0, 1, 3):
            rec["decoded"][str(ch)] = arr(tf.io.decode_jpeg(
                data, channels=ch, dct_method="INTEGER_ACCURATE").numpy())
            rec["default_decoded"][str(ch)] = arr(tf.io.decode_jpeg(data, channels=ch).numpy())
        out["jpeg"][key] = rec
    frames = [Image.fromarray(rng.integers(0, 256, (5, 6, 3), dtype=np.uint8)).quantize(16)
              for _ in range(3)]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:])
    gif = buf.getvalue()
    out["other"]["gif"] = {"bytes": b64(gif), "decoded": arr(tf.io.decode_gif(gif).numpy()),
                           "image": arr(tf.io.decode_image(gif).numpy()),
                           "first": arr(tf.io.decode_image(gif, expand_animations=False))}
    buf = io.BytesIO()
    Image.fromarray(images["rgb"]).save(buf, format="BMP")
    bmp = buf.getvalue()
    out["other"]["bmp"] = {"bytes": b64(bmp), "decoded": arr(tf.io.decode_bmp(bmp).numpy()),
                           "decoded4": arr(tf.io.decode_bmp(bmp, channels=4).numpy())}
    png = tf.io.encode_png(images["rgb"]).numpy()
    out["other"]["decode_image_png_float"] = {
        "bytes": b64(png), "decoded": arr(tf.io.decode_image(png, dtype=tf.float32).numpy())}
    audio = np.array([[0.0, 0.5], [-1.0, 0.99], [0.25, -0.3], [1.5, -2.0],
                      [0.123456, -0.000015]], np.float32)
    wav = tf.audio.encode_wav(audio, 22050).numpy()
    rec = {"audio": arr(audio), "rate": 22050, "bytes": b64(wav), "decoded": {}}
    for ch, n in ((-1, -1), (1, -1), (3, -1), (-1, 3), (-1, 8), (1, 2)):
        a, sr = tf.audio.decode_wav(wav, desired_channels=ch, desired_samples=n)
        rec["decoded"][f"{ch}/{n}"] = {"audio": arr(a.numpy()), "rate": int(sr.numpy())}
    mono = tf.audio.encode_wav(audio[:, :1], 8000).numpy()
    a, sr = tf.audio.decode_wav(mono, desired_channels=2)
    rec["mono"] = {"bytes": b64(mono), "stereo": arr(a.numpy())}
    out["wav"] = rec
    out["errors"] = {
        "decode_png_garbage": error(lambda: tf.io.decode_png(b"garbage")),
        "decode_png_channels": error(lambda: tf.io.decode_png(png, channels=2)),
        "read_file_missing": error(lambda: tf.io.read_file("/nonexistent/dir/x.txt")),
        "decode_wav_garbage": error(lambda: tf.audio.decode_wav(b"RIFFxxxx")),
        "gfile_remove_missing": error(lambda: tf.io.gfile.remove("/nonexistent/dir/x.txt")),
        "gfile_listdir_missing": error(lambda: tf.io.gfile.listdir("/nonexistent/dir")),
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    print(f"-> {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
