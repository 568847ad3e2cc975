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


def write_dirs(root):
    """All the folders the directory cases read, under ``root``."""
    write_image_dir(os.path.join(root, "img"))
    write_gray_image_dir(os.path.join(root, "gray"))
    write_text_dir(os.path.join(root, "txt"))
    write_audio_dir(os.path.join(root, "wav"))


def _series():
    return (np.arange(40, dtype="float32").reshape(20, 2) * 0.5,
            np.arange(20, dtype="int64") * 10)


def _split_data():
    rng = np.random.default_rng(3)
    return rng.normal(size=(10, 3)).astype("float32"), np.arange(10)


# name -> (kind, call(keras, root)): the same calls run under Keras 3 (recorder) and tapeflow
# (tests). ``kind`` says how to read the result: 'ds' a dataset (iterated twice: shuffling
# changes per epoch), 'pair' a [train, validation] pair, 'array' a NumPy result.
DIR_CASES = {
    "img_default": ("ds", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", image_size=(6, 5), batch_size=4, seed=3)),
    "img_both_categorical_nearest": ("pair", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", label_mode="categorical", validation_split=0.3, subset="both", seed=11,
        interpolation="nearest", image_size=(4, 4), batch_size=3)),
    "img_binary_crop": ("ds", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", label_mode="binary", class_names=["fish", "cat"], crop_to_aspect_ratio=True,
        image_size=(5, 7), shuffle=False, batch_size=8)),
    "img_pad_gray_bicubic": ("ds", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", pad_to_aspect_ratio=True, color_mode="grayscale", batch_size=None,
        shuffle=False, interpolation="bicubic", image_size=(4, 6))),
    "img_unlabelled_rgba": ("ds", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/gray", labels=None, color_mode="rgba", image_size=(3, 3), shuffle=False,
        batch_size=2)),
    "img_unlabelled_gray_area": ("ds", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/gray", labels=None, color_mode="grayscale", image_size=(4, 3), seed=2,
        batch_size=5, interpolation="area")),
    "img_label_list_training": ("ds", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", labels=[3, 1, 4, 1, 5, 9, 2, 6, 5, 3], validation_split=0.2,
        subset="training", seed=5, image_size=(3, 2), batch_size=4)),
    "img_validation_channels_first": ("ds", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", validation_split=0.5, subset="validation", seed=8, image_size=(3, 4),
        data_format="channels_first", batch_size=2, verbose=False)),
    "img_crop_channels_first": ("ds", lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", crop_to_aspect_ratio=True, image_size=(3, 5), shuffle=False,
        data_format="channels_first", batch_size=10)),
    "txt_default": ("ds", lambda k, r: k.utils.text_dataset_from_directory(
        f"{r}/txt", batch_size=3, seed=1)),
    "txt_max_length_categorical": ("ds", lambda k, r: k.utils.text_dataset_from_directory(
        f"{r}/txt", batch_size=4, max_length=8, label_mode="categorical", shuffle=False)),
    "txt_both_binary": ("pair", lambda k, r: k.utils.text_dataset_from_directory(
        f"{r}/txt", label_mode="binary", validation_split=0.4, subset="both", seed=2,
        batch_size=2)),
    "txt_unlabelled": ("ds", lambda k, r: k.utils.text_dataset_from_directory(
        f"{r}/txt", labels=None, batch_size=None, seed=6)),
    "wav_padded": ("ds", lambda k, r: k.utils.audio_dataset_from_directory(
        f"{r}/wav", batch_size=2, seed=1)),
    "wav_fixed_length": ("ds", lambda k, r: k.utils.audio_dataset_from_directory(
        f"{r}/wav", batch_size=3, output_sequence_length=50, shuffle=False,
        label_mode="categorical")),
    "wav_validation_unbatched": ("ds", lambda k, r: k.utils.audio_dataset_from_directory(
        f"{r}/wav", batch_size=None, validation_split=0.4, subset="validation", seed=4)),
    "ts_basic": ("ds", lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0], _series()[1], sequence_length=4, batch_size=5)),
    "ts_stride_rate_shuffle": ("ds", lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0], _series()[1], sequence_length=3, sequence_stride=2, sampling_rate=3,
        batch_size=2, shuffle=True, seed=9)),
    "ts_no_targets_range": ("ds", lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0], None, sequence_length=5, start_index=3, end_index=17, batch_size=None)),
    "ts_targets_offset": ("ds", lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0][:-3], _series()[1][3:], sequence_length=3, batch_size=4, start_index=2)),
    "ts_unbatched_shuffle": ("ds", lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0], _series()[1], sequence_length=2, batch_size=None, shuffle=True,
        seed=1)),
    "split_array": ("pair", lambda k, r: k.utils.split_dataset(
        _split_data()[0], left_size=0.3)),
    "split_array_shuffle": ("pair", lambda k, r: k.utils.split_dataset(
        _split_data()[0], right_size=4, shuffle=True, seed=12)),
    "split_tuple_sizes": ("pair", lambda k, r: k.utils.split_dataset(
        _split_data(), left_size=5, right_size=3)),
    "split_list": ("pair", lambda k, r: k.utils.split_dataset(
        list(_split_data()), left_size=0.6, right_size=0.2, shuffle=True, seed=4)),
}


def _tf_data(k):
    """The ``tf.data`` module that goes with ``keras`` (TF's or tapeflow's)."""
    import importlib
    name = "tapeflow" if k.__name__.startswith("tapeflow") else "tensorflow"
    return importlib.import_module(name).data


DIR_CASES.update({
    "split_batched_dataset": ("pair", lambda k, r: k.utils.split_dataset(
        _tf_data(k).Dataset.from_tensor_slices(_split_data()).batch(3), left_size=0.5,
        shuffle=True, seed=3)),
    "split_dict_dataset": ("pair", lambda k, r: k.utils.split_dataset(
        _tf_data(k).Dataset.from_tensor_slices({"b": _split_data()[1], "a": _split_data()[0]}),
        right_size=0.3)),
    "smart_resize": ("array", lambda k, r: k.preprocessing.image.smart_resize(
        np.arange(2 * 5 * 8 * 3, dtype="float32").reshape(2, 5, 8, 3), (4, 4))),
    "smart_resize_single_nearest": ("array", lambda k, r: k.preprocessing.image.smart_resize(
        np.arange(7 * 4 * 1, dtype="float32").reshape(7, 4, 1), (3, 5),
        interpolation="nearest")),
})

# name -> call(keras, root) expected to raise.
DIR_ERRORS = {
    "bad_labels": lambda k, r: k.utils.image_dataset_from_directory(f"{r}/img", labels="x"),
    "class_names_with_list": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", labels=[0] * 10, class_names=["a"]),
    "bad_label_mode": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", label_mode="sparse"),
    "bad_color_mode": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", color_mode="cmyk"),
    "bad_image_size": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", image_size=(1, 2, 3)),
    "bad_interpolation": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", interpolation="cubic"),
    "split_without_seed": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", validation_split=0.2, subset="training"),
    "split_without_subset": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", validation_split=0.2, seed=1),
    "bad_subset": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", validation_split=0.2, subset="test", seed=1),
    "bad_split": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", validation_split=1.5, subset="training", seed=1),
    "binary_three_classes": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", label_mode="binary"),
    "unknown_class_names": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", class_names=["cat", "cow"]),
    "labels_length": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", labels=[0, 1]),
    "crop_and_pad": lambda k, r: k.utils.image_dataset_from_directory(
        f"{r}/img", crop_to_aspect_ratio=True, pad_to_aspect_ratio=True),
    "no_images": lambda k, r: k.utils.image_dataset_from_directory(f"{r}/txt"),
    "no_text": lambda k, r: k.utils.text_dataset_from_directory(f"{r}/img"),
    "ragged_and_length": lambda k, r: k.utils.audio_dataset_from_directory(
        f"{r}/wav", ragged=True, output_sequence_length=3),
    "ts_start_index": lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0], None, 3, start_index=25),
    "ts_end_before_start": lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0], None, 3, start_index=5, end_index=4),
    "ts_sampling_rate": lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0], None, 3, sampling_rate=0),
    "ts_stride": lambda k, r: k.utils.timeseries_dataset_from_array(
        _series()[0], None, 3, sequence_stride=20),
    "split_no_sizes": lambda k, r: k.utils.split_dataset(_split_data()[0]),
    "split_bad_type": lambda k, r: k.utils.split_dataset({"a": _split_data()[0]}, 0.5),
    "split_too_big": lambda k, r: k.utils.split_dataset(_split_data()[0], 7, 5),
    "split_float_sum": lambda k, r: k.utils.split_dataset(_split_data()[0], 0.7, 0.5),
    "split_size_type": lambda k, r: k.utils.split_dataset(_split_data()[0], "3"),
    "smart_resize_rank": lambda k, r: k.preprocessing.image.smart_resize(
        np.zeros((3, 3)), (2, 2)),
}


def make_py_dataset_class(keras):
    """A ``PyDataset`` of 5 batches of 4 rows (the last 2 rows) drawn from fixed arrays; it logs
    ``on_epoch_begin``/``on_epoch_end`` and which batch indices it served."""

    class Batches(keras.utils.PyDataset):
        def __init__(self, weights=False, **kwargs):
            super().__init__(**kwargs)
            rng = np.random.default_rng(5)
            self.x = rng.normal(size=(18, 3)).astype("float32")
            self.y = rng.normal(size=(18, 2)).astype("float32")
            self.w = rng.uniform(0.5, 1.5, size=18).astype("float32")
            self.weights = weights
            self.log = []

        def __len__(self):
            return 5

        def __getitem__(self, i):
            self.log.append(i)
            s = slice(4 * i, 4 * i + 4)
            if self.weights:
                return self.x[s], self.y[s], self.w[s]
            return self.x[s], self.y[s]

        def on_epoch_begin(self):
            self.log.append("begin")

        def on_epoch_end(self):
            self.log.append("end")

    return Batches


def make_fixed_model(keras):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                              keras.layers.Dense(2)])
    rng = np.random.default_rng(6)
    model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.5
                       for w in model.get_weights()])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    return model


def feature_table():
    """A small structured table: float, int and string columns (some values unseen)."""
    rng = np.random.default_rng(11)
    n = 24
    return {
        "age": rng.integers(18, 80, n).astype("float32"),
        "income": rng.normal(50, 20, n).astype("float32"),
        "score": rng.uniform(0, 1, n).astype("float32"),
        "rating": rng.uniform(0, 10, n).astype("float32"),
        "children": rng.integers(0, 4, n).astype("int32"),
        "zip": rng.integers(1000, 1010, n).astype("int32"),
        "city": np.array([["paris", "lyon", "nice", "lille"][i] for i in rng.integers(0, 4, n)]),
        "color": np.array([["red", "green", "blue"][i] for i in rng.integers(0, 3, n)]),
    }


def feature_query():
    """A batch to encode, with values the adapted vocabularies have not seen."""
    return {"age": np.array([20.0, 65.0, 40.0], "float32"),
            "income": np.array([10.0, 50.0, 95.0], "float32"),
            "score": np.array([0.1, 0.5, 0.9], "float32"),
            "rating": np.array([1.0, 5.0, 9.5], "float32"),
            "children": np.array([0, 3, 7], "int32"),
            "zip": np.array([1001, 1005, 2000], "int32"),
            "city": np.array(["paris", "rome", "nice"]),
            "color": np.array(["blue", "red", "pink"])}


def make_feature_spaces(keras):
    """name -> a FeatureSpace (not yet adapted) over ``feature_table()``'s columns."""
    FS = keras.utils.FeatureSpace
    return {
        "by_name": FS(features={"age": "float_normalized", "income": "float_discretized",
                                "score": "float", "rating": "float_rescaled",
                                "children": "integer_categorical", "zip": "integer_hashed",
                                "city": "string_categorical", "color": "string_hashed"},
                      crosses=[("city", "color")], crossing_dim=8, hashing_dim=6,
                      num_discretization_bins=4, output_mode="concat"),
        "objects": FS(features={
            "age": FS.float_discretized(num_bins=3, output_mode="int"),
            "income": FS.float_normalized(),
            "rating": FS.float_rescaled(scale=0.1, offset=-0.5),
            "children": FS.integer_categorical(max_tokens=3, num_oov_indices=2),
            "zip": FS.integer_hashed(num_bins=5, output_mode="int"),
            "city": FS.string_categorical(max_tokens=3, output_mode="int"),
            "color": FS.string_hashed(num_bins=4)},
            crosses=[FS.cross(("children", "city"), crossing_dim=7, output_mode="int"),
                     FS.cross(("zip", "color"), crossing_dim=3)],
            output_mode="dict"),
    }


def _images(n=6, h=7, w=6, c=3, seed=4):
    return np.random.default_rng(seed).uniform(0, 255, (n, h, w, c)).astype("float32")


def _batches(iterator, count):
    return [iterator[i] for i in range(min(count, len(iterator)))]


def _seeded(fn):
    """Run ``fn`` with NumPy's and Python's global generators seeded (the legacy API draws
    from them)."""
    def run(prep, root):
        import random
        np.random.seed(1234)
        random.seed(99)
        return fn(prep, root)
    return run


def _fitted(prep, **kwargs):
    gen = prep.image.ImageDataGenerator(**kwargs)
    gen.fit(_images(8, 5, 4, 3, seed=9), augment=False)
    return gen


def _tokenizer(prep, **kwargs):
    tok = prep.text.Tokenizer(**kwargs)
    tok.fit_on_texts(["The cat sat on the mat.", "The dog ate my homework!",
                      "cat and dog, cat and mouse", "A mat; a hat? THE END"])
    return tok


_QUERY = ["the cat and the hat", "a zebra ate the mat", ""]

# name -> call(keras.preprocessing, root): the legacy tf.keras.preprocessing API, with the
# global generators seeded; results are arrays, lists or tuples of them.
LEGACY_CASES = {
    "flow_augment": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        rotation_range=20, width_shift_range=0.2, height_shift_range=[1, 2], shear_range=10,
        zoom_range=0.2, channel_shift_range=5.0, horizontal_flip=True, vertical_flip=True,
        fill_mode="reflect", rescale=1 / 255).flow(_images(), np.arange(6), batch_size=4,
                                                   seed=7), 3)),
    "flow_constant_fill_order3": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        rotation_range=45, zoom_range=[0.5, 1.2], fill_mode="constant", cval=9.0,
        interpolation_order=3).flow(_images(), batch_size=5, shuffle=False), 2)),
    "flow_wrap_brightness": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        width_shift_range=3, brightness_range=(0.5, 1.5), fill_mode="wrap").flow(
        _images(), np.arange(6), sample_weight=np.linspace(0.5, 1, 6), batch_size=3,
        seed=2), 2)),
    "flow_featurewise": _seeded(lambda p, r: _batches(_fitted(
        p, featurewise_center=True, featurewise_std_normalization=True).flow(
        _images(4, 5, 4, 3, seed=1), shuffle=False, batch_size=4), 1)),
    "flow_zca_samplewise": _seeded(lambda p, r: _batches(_fitted(
        p, zca_whitening=True, samplewise_center=True, samplewise_std_normalization=True,
        zca_epsilon=0.1).flow(_images(3, 5, 4, 3, seed=1), shuffle=False, batch_size=3), 1)),
    "flow_subset_misc": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        validation_split=0.5, horizontal_flip=True).flow(
        (_images(), np.arange(12).reshape(6, 2)), np.array([0, 1, 0, 1, 0, 1]),
        subset="training", batch_size=2, seed=5), 2)),
    "flow_channels_first": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        data_format="channels_first", rotation_range=30, height_shift_range=0.1).flow(
        _images().transpose(0, 3, 1, 2), batch_size=6, seed=3), 1)),
    "flow_iterator_protocol": _seeded(lambda p, r: [next(it) for it in [
        p.image.ImageDataGenerator(vertical_flip=True).flow(_images(5), np.arange(5),
                                                            batch_size=2, seed=8)]
        for _ in range(4)]),
    "directory_categorical": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        rescale=1 / 255, horizontal_flip=True).flow_from_directory(
        f"{r}/img", target_size=(6, 5), batch_size=4, seed=3), 3)),
    "directory_sparse_training": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        validation_split=0.34).flow_from_directory(
        f"{r}/img", target_size=(4, 4), class_mode="sparse", subset="training",
        color_mode="grayscale", batch_size=3, shuffle=False, interpolation="bilinear"), 2)),
    "directory_binary_validation": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        validation_split=0.5).flow_from_directory(
        f"{r}/img", classes=["fish", "cat"], target_size=(3, 3), class_mode="binary",
        subset="validation", batch_size=8, seed=1, keep_aspect_ratio=True), 1)),
    "directory_input_rgba": _seeded(lambda p, r: _batches(p.image.ImageDataGenerator(
        ).flow_from_directory(f"{r}/img", target_size=(2, 3), class_mode="input",
                              color_mode="rgba", batch_size=10, shuffle=False), 1)),
    "random_rotation": _seeded(lambda p, r: p.image.random_rotation(
        _images(1, 5, 6, 2)[0], 40, row_axis=0, col_axis=1, channel_axis=2)),
    "random_shift": _seeded(lambda p, r: p.image.random_shift(
        _images(1, 3, 5, 6)[0], 0.3, 0.2, fill_mode="constant")),
    "random_shear": _seeded(lambda p, r: p.image.random_shear(
        _images(1, 2, 6, 5)[0], 30, fill_mode="reflect")),
    "random_zoom": _seeded(lambda p, r: p.image.random_zoom(
        _images(1, 6, 5, 3)[0], (0.6, 1.4), row_axis=0, col_axis=1, channel_axis=2)),
    "random_channel_shift": _seeded(lambda p, r: p.image.random_channel_shift(
        _images(1, 4, 4, 3)[0], 30.0, channel_axis=2)),
    "random_brightness": _seeded(lambda p, r: p.image.random_brightness(
        _images(1, 4, 4, 3)[0], (0.2, 1.8))),
    "affine_all": lambda p, r: p.image.apply_affine_transform(
        _images(1, 6, 7, 3)[0], theta=17, tx=1.5, ty=-2, shear=12, zx=0.8, zy=1.3,
        row_axis=0, col_axis=1, channel_axis=2, fill_mode="nearest", order=1),
    "affine_channels_first": lambda p, r: p.image.apply_affine_transform(
        _images(1, 3, 6, 5)[0], theta=-30, zx=1.2, fill_mode="constant", cval=3.0, order=0),
    "smart_resize_legacy": lambda p, r: p.image.smart_resize(_images(1, 9, 4, 3)[0], (5, 5)),
    "img_to_array_gray": lambda p, r: p.image.img_to_array(p.image.load_img(
        f"{r}/gray/g0.png", color_mode="grayscale", target_size=(4, 3))),
    "timeseries_generator": lambda p, r: _batches(p.sequence.TimeseriesGenerator(
        np.arange(30).reshape(15, 2), np.arange(15) * 2, length=4, sampling_rate=2, stride=3,
        start_index=1, end_index=13, batch_size=2), 3),
    "timeseries_generator_reverse": lambda p, r: [
        g[i] for g in [p.sequence.TimeseriesGenerator(
            np.arange(20.0), np.arange(20.0), length=3, reverse=True, batch_size=5)]
        for i in range(len(g))],
    "timeseries_generator_shuffle": _seeded(lambda p, r: _batches(
        p.sequence.TimeseriesGenerator(np.arange(20.0), np.arange(20.0), length=2,
                                       shuffle=True, batch_size=4), 2)),
    "make_sampling_table": lambda p, r: p.sequence.make_sampling_table(12, 1e-2),
    "skipgrams": _seeded(lambda p, r: p.sequence.skipgrams(
        [0, 3, 1, 4, 1, 5, 0, 2, 6], vocabulary_size=8, window_size=2)),
    "skipgrams_categorical_table": _seeded(lambda p, r: p.sequence.skipgrams(
        [2, 7, 1, 8, 2, 8, 1], vocabulary_size=10, window_size=1, negative_samples=0.5,
        categorical=True, sampling_table=p.sequence.make_sampling_table(10, 0.05),
        seed=21)),
    "skipgrams_unshuffled": _seeded(lambda p, r: p.sequence.skipgrams(
        [1, 2, 3, 4], vocabulary_size=5, window_size=3, negative_samples=0, shuffle=False)),
    "pad_sequences": lambda p, r: p.sequence.pad_sequences(
        [[1, 2, 3], [4], [5, 6, 7, 8, 9]], maxlen=4, padding="post", truncating="pre",
        value=-1),
    "text_to_word_sequence": lambda p, r: p.text.text_to_word_sequence(
        "Hello, World! It's a  TEST-case\tokay?", split=" "),
    "hashing_trick_md5": lambda p, r: p.text.hashing_trick(
        "the quick brown fox jumps over the lazy dog", 20, hash_function="md5"),
    "tokenizer_sequences": lambda p, r: _tokenizer(p).texts_to_sequences(_QUERY),
    "tokenizer_oov_num_words": lambda p, r: _tokenizer(
        p, num_words=5, oov_token="<OOV>").texts_to_sequences(_QUERY),
    "tokenizer_back_to_texts": lambda p, r: _tokenizer(
        p, num_words=6, oov_token="?").sequences_to_texts([[1, 2, 3, 9, 5], [7, 0, 2]]),
    "tokenizer_char_level": lambda p, r: _tokenizer(
        p, char_level=True).texts_to_sequences(["Cat!", "dot"]),
    "tokenizer_binary": lambda p, r: _tokenizer(p).texts_to_matrix(_QUERY, mode="binary"),
    "tokenizer_count": lambda p, r: _tokenizer(p, num_words=7).texts_to_matrix(
        _QUERY, mode="count"),
    "tokenizer_freq": lambda p, r: _tokenizer(p).texts_to_matrix(_QUERY, mode="freq"),
    "tokenizer_tfidf": lambda p, r: _tokenizer(p).texts_to_matrix(_QUERY, mode="tfidf"),
    "tokenizer_word_index": lambda p, r: sorted(_tokenizer(p, oov_token="~").word_index.items(),
                                                key=lambda kv: kv[1]),
    "tokenizer_json_roundtrip": lambda p, r: p.text.tokenizer_from_json(
        _tokenizer(p, num_words=8).to_json()).texts_to_matrix(_QUERY, mode="tfidf"),
}


def make_plot_models(keras):
    """name -> a built model for model_to_dot (layers named, so the dot text is stable)."""
    L = keras.layers
    seq = keras.Sequential([keras.Input((3,)), L.Dense(4, activation="relu", name="d1"),
                            L.Dropout(0.1, name="drop"), L.Dense(2, name="d2")], name="seq")
    a = keras.Input((5,), name="a")
    b = keras.Input((4,), name="b", dtype="float32")
    left = L.Dense(3, activation="tanh", name="left")(a)
    right = L.Dense(3, name="right")(b)
    right.shape  # noqa: B018 - both branches used below
    merged = L.Concatenate(name="cat")([left, right])
    out = L.Dense(1, activation="sigmoid", name="out")(merged)
    aux = L.Dense(2, name="aux")(left)
    two = keras.Model([a, b], [out, aux], name="two_towers")
    inner = keras.Sequential([keras.Input((4,)), L.Dense(4, name="inner_dense"),
                              L.BatchNormalization(name="bn")], name="inner")
    x = keras.Input((4,), name="x")
    h = inner(x)
    h = L.Dense(2, name="head", trainable=False)(h)
    nested = keras.Model(x, h, name="nested")

    class Sub(keras.Model):
        def __init__(self):
            super().__init__(name="sub")
            self.dense = L.Dense(2)

        def call(self, x):
            return self.dense(x)
    sub = Sub()
    sub(np.zeros((1, 3), "float32"))
    return {"seq": seq, "two_towers": two, "nested": nested, "sub": sub}


# name -> (model name, model_to_dot keyword arguments)
PLOT_CASES = {
    "seq_all": ("seq", dict(show_shapes=True, show_dtype=True, show_layer_activations=True,
                            show_trainable=True)),
    "seq_plain": ("seq", dict(show_layer_names=False, rankdir="LR", dpi=96)),
    "two_towers_shapes": ("two_towers", dict(show_shapes=True, show_layer_activations=True)),
    "two_towers_dtype": ("two_towers", dict(show_dtype=True, show_trainable=True,
                                            splines="polyline")),
    "nested": ("nested", dict(show_shapes=True, show_trainable=True)),
    "nested_expanded": ("nested", dict(expand_nested=True, show_shapes=True)),
    "sub": ("sub", dict(show_shapes=True)),
}


def normalize_dot(text):
    """Dot source with the layers' ``id`` node names renamed n0, n1, ... by first use."""
    import re
    names = {}

    def rename(m):
        return names.setdefault(m.group(0), f"n{len(names)}")
    return re.sub(r"\b\d{6,}\b", rename, text)


def make_custom_feature_space(keras):
    """A FeatureSpace of ``FeatureSpace.feature`` objects over preprocessors given whole."""
    FS = keras.utils.FeatureSpace
    L = keras.layers
    return FS(features={
        "score": FS.feature("float32", L.Normalization(mean=0.5, variance=0.04), "float"),
        "children": FS.feature("int32", L.Hashing(num_bins=3), "one_hot"),
        "color": FS.feature("string", L.StringLookup(num_oov_indices=2),
                            "int"),
        "age": FS.feature("float32", L.Rescaling(0.01), "float")}, output_mode="dict")


def flow_fit(keras, prep):
    """Two epochs of SGD on an augmenting ImageDataGenerator flow (fit(shuffle=False)): the
    losses, the final weights and predict's output."""
    gen = prep.image.ImageDataGenerator(horizontal_flip=True, rotation_range=15,
                                        width_shift_range=0.1, rescale=1 / 255)
    flow = gen.flow(_images(10, 5, 4, 3), np.arange(10) % 2, batch_size=4, seed=3)
    model = keras.Sequential([keras.Input((5, 4, 3)), keras.layers.Flatten(),
                              keras.layers.Dense(2)])
    rng = np.random.default_rng(1)
    model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.1
                       for w in model.get_weights()])
    model.compile(keras.optimizers.SGD(0.05),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(flow, epochs=2, shuffle=False, verbose=0)
    return {"loss": history.history["loss"],
            "weights": [w.tolist() for w in model.get_weights()],
            "predict": model.predict(flow, verbose=0).tolist()}
