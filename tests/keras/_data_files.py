"""Tiny stand-ins, in Keras's exact file formats, for the dataset cache files and for the
directory utilities' image/text/audio folders. Shared by ``tools/record_keras_data.py`` (which
runs Keras 3 on them under /work/tfenv) and the tests (which run tapeflow on the same bytes):
everything here is deterministic and needs only NumPy, Pillow and the standard library."""
import gzip
import io
import json
import os
import pickle
import struct
import tarfile
import wave

import numpy as np


def _idx(array, labels):
    head = struct.pack(">II", 2049, len(array)) if labels else struct.pack(
        ">IIII", 2051, len(array), *array.shape[1:])
    return gzip.compress(head + array.astype(np.uint8).tobytes())


def _ragged(rng, n, vocab):
    out = np.empty(n, dtype=object)
    out[:] = [list(int(w) for w in rng.integers(1, vocab, size=int(rng.integers(2, 12))))
              for _ in range(n)]
    return out


def _tar(members):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _cifar_batch(rng, n, keys):
    d = {b"batch_label": b"tiny", b"data": rng.integers(0, 256, (n, 3072), dtype=np.uint8),
         b"filenames": [f"f{i}.png".encode() for i in range(n)]}
    for key, top in keys.items():
        d[key] = [int(v) for v in rng.integers(0, top, n)]
    return pickle.dumps(d, protocol=4)


def write_dataset_cache(home):
    """Write every dataset's cache file(s) under ``home/datasets`` (``home`` plays
    ``KERAS_HOME``)."""
    rng = np.random.default_rng(21)
    d = os.path.join(home, "datasets")
    os.makedirs(os.path.join(d, "fashion-mnist"), exist_ok=True)
    np.savez(os.path.join(d, "mnist.npz"),
             x_train=rng.integers(0, 256, (6, 28, 28), dtype=np.uint8),
             y_train=rng.integers(0, 10, 6, dtype=np.uint8),
             x_test=rng.integers(0, 256, (3, 28, 28), dtype=np.uint8),
             y_test=rng.integers(0, 10, 3, dtype=np.uint8))
    for prefix, n in (("train", 5), ("t10k", 4)):
        with open(os.path.join(d, "fashion-mnist", f"{prefix}-labels-idx1-ubyte.gz"), "wb") as f:
            f.write(_idx(rng.integers(0, 10, n), True))
        with open(os.path.join(d, "fashion-mnist", f"{prefix}-images-idx3-ubyte.gz"), "wb") as f:
            f.write(_idx(rng.integers(0, 256, (n, 28, 28)), False))
    members = {f"cifar-10-batches-py/data_batch_{i}": _cifar_batch(rng, 2, {b"labels": 10})
               for i in range(1, 6)}
    members["cifar-10-batches-py/test_batch"] = _cifar_batch(rng, 3, {b"labels": 10})
    with open(os.path.join(d, "cifar-10-batches-py-target_archive"), "wb") as f:
        f.write(_tar(members))
    keys = {b"fine_labels": 100, b"coarse_labels": 20}
    with open(os.path.join(d, "cifar-100-python-target_archive"), "wb") as f:
        f.write(_tar({"cifar-100-python/train": _cifar_batch(rng, 4, keys),
                      "cifar-100-python/test": _cifar_batch(rng, 3, keys)}))
    np.savez(os.path.join(d, "imdb.npz"), x_train=_ragged(rng, 12, 30),
             y_train=rng.integers(0, 2, 12), x_test=_ragged(rng, 10, 30),
             y_test=rng.integers(0, 2, 10))
    np.savez(os.path.join(d, "reuters.npz"), x=_ragged(rng, 15, 40), y=rng.integers(0, 46, 15))
    words = ["the", "and", "a", "of", "to", "is", "film", "movie"]
    with open(os.path.join(d, "imdb_word_index.json"), "w") as f:
        json.dump({w: i + 1 for i, w in enumerate(words)}, f)
    with open(os.path.join(d, "reuters_word_index.json"), "w") as f:
        json.dump({w: i + 1 for i, w in enumerate(reversed(words))}, f)
    np.savez(os.path.join(d, "boston_housing.npz"), x=rng.normal(size=(11, 13)),
             y=rng.normal(20, 5, size=11))
    np.savez(os.path.join(d, "california_housing.npz"),
             x=rng.normal(size=(13, 8)).astype(np.float32),
             y=rng.normal(2e5, 5e4, size=13).astype(np.float32))


def _png(path, array):
    from PIL import Image
    Image.fromarray(array).save(path)


def write_image_dir(root):
    """``root/{cat,dog,fish}``: 3/4/2 RGB PNG/JPEG files of varied sizes, plus a stray text
    file that must be skipped and a nested sub-folder whose images count for its class."""
    rng = np.random.default_rng(7)
    sizes = [(12, 16), (16, 12), (10, 10), (20, 8)]
    counts = {"cat": 3, "dog": 4, "fish": 2}
    k = 0
    for cls, n in counts.items():
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        for _ in range(n):
            h, w = sizes[k % len(sizes)]
            img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
            ext = "png" if k % 3 else "jpg"
            name = os.path.join(root, cls, f"img_{(7 * k) % 11:02d}.{ext}")
            if ext == "png":
                _png(name, img)
            else:
                from PIL import Image
                Image.fromarray(img).save(name, quality=95)
            k += 1
    os.makedirs(os.path.join(root, "dog", "puppies"), exist_ok=True)
    _png(os.path.join(root, "dog", "puppies", "p.png"),
         rng.integers(0, 256, (14, 14, 3), dtype=np.uint8))
    with open(os.path.join(root, "cat", "notes.txt"), "w") as f:
        f.write("not an image")


def write_gray_image_dir(root):
    """Unlabelled grayscale/RGBA images in one flat folder (``labels=None``)."""
    rng = np.random.default_rng(8)
    os.makedirs(root, exist_ok=True)
    for i in range(5):
        mode = i % 2
        arr = rng.integers(0, 256, (9 + i, 7, 4) if mode else (9 + i, 7), dtype=np.uint8)
        _png(os.path.join(root, f"g{i}.png"), arr)


TEXTS = ["the cat sat", "a dog barked loudly", "fish swim", "héllo wörld", "",
         "line one\nline two", "tabs\tand spaces  ", "short", "a much longer piece of text "
         "that will be cut by max_length"]


def write_text_dir(root):
    """``root/{neg,pos}``: .txt files (one outside the .txt extension that is skipped)."""
    for i, text in enumerate(TEXTS):
        cls = "pos" if i % 2 else "neg"
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        with open(os.path.join(root, cls, f"t{(5 * i) % 9}.txt"), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(root, "neg", "skip.md"), "w") as f:
        f.write("markdown")


def write_audio_dir(root):
    """``root/{hi,lo}``: 16-bit mono WAV files of different lengths at 8 kHz."""
    rng = np.random.default_rng(9)
    for i in range(5):
        cls = "hi" if i % 2 else "lo"
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        n = 40 + 13 * i
        samples = (rng.normal(size=n) * 8000).astype("<i2")
        with wave.open(os.path.join(root, cls, f"a{i}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(8000)
            w.writeframes(samples.tobytes())
