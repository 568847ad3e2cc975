"""Keras 3's categorical and text preprocessing layers: CategoryEncoding, StringLookup,
IntegerLookup, Discretization and TextVectorization.

Each layer's work is a non-differentiable primitive whose NumPy forward holds the layer's
vocabulary (or bin boundaries) as an attribute, so that the layers run eagerly, inside
``tf.function`` (a compiled ``model.fit`` step) and inside ``tf.data.Dataset.map`` alike.
String tensors are object arrays of ``bytes``. Hashing uses TensorFlow's own hashes
(FarmHash Fingerprint64, SipHash-2-4) written in Python (``ops/_fingerprint.py``).
"""
from ..._core import dtypes as _dt
from ..._core import errors
from ..._core.backend import np
from ..._core.dispatch import apply
from ..._core.registry import nondifferentiable
from ..._core.tensor import _TensorLike, convert_to_tensor, string_value
from .. import _naming
from .layer import Layer

__all__ = ["CategoryEncoding", "StringLookup", "IntegerLookup", "Discretization",
           "TextVectorization", "Hashing", "HashedCrossing"]

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


# -- primitives ------------------------------------------------------------------------------
def _encode(ids, weights=None, depth=0, mode="multi_hot", idf=None, dtype=np.float32,
            skip_pad=False):
    """one_hot / multi_hot / count / tf_idf of integer ``ids`` (Keras's rank rules:
    one_hot appends an axis unless the last one has size 1; the others reduce the last
    axis); ids >= depth are dropped, -1 (a padding) too when ``skip_pad``."""
    ids = np.asarray(ids).astype(np.int64)
    w = None if weights is None else np.asarray(weights, np.float64).reshape(ids.shape)
    if ids.ndim == 0:
        ids = ids.reshape(1)
        w = None if w is None else w.reshape(1)
    if mode != "one_hot" and ((ids < -1) | (ids == -1) & (not skip_pad)).any():
        raise errors.op_error(errors.InvalidArgumentError,
                              "Input arr must be non-negative!", "DenseBincount")
    if mode == "one_hot":
        if ids.ndim >= 2 and ids.shape[-1] == 1:
            ids = ids[..., 0]
        out = (ids[..., None] == np.arange(depth)).astype(dtype)
        return out
    if ids.ndim == 3:  # TF's bincount counts a rank-3 input along its axis 1
        ids = np.swapaxes(ids, 1, 2)
        if w is not None:
            w = np.swapaxes(w, 1, 2)
    lead = ids.shape[:-1]
    rows = ids.reshape(int(np.prod(lead)), ids.shape[-1])
    out = np.zeros((rows.shape[0], depth), np.float64)
    w = None if w is None else w.reshape(rows.shape)
    for r in range(rows.shape[0]):
        keep = (rows[r] >= 0) & (rows[r] < depth)
        np.add.at(out[r], rows[r][keep], 1.0 if w is None else w[r][keep])
    if mode == "multi_hot":
        out = (out > 0).astype(np.float64)
    elif mode == "tf_idf":
        out = out * np.asarray(idf, np.float64)[:depth]
    return out.reshape(lead + (depth,)).astype(dtype)


def _encode_forward(ids, *weights, depth, mode, idf, dtype, skip_pad):
    return _encode(ids, weights[0] if weights else None, depth, mode, idf, dtype, skip_pad)


_ENCODE = nondifferentiable("DenseBincount", _encode_forward)


class _Table:
    """A finished vocabulary: token -> index, and the reverse, for one output mode."""

    def __init__(self, tokens, specials, oov_start, num_oov, floormod):
        self.tokens = list(tokens)
        self.specials = list(specials)
        self.oov_start = oov_start
        self.num_oov = num_oov
        self.floormod = floormod
        start = len(self.specials)
        self.index = {t: start + i for i, t in enumerate(self.tokens)}
        if oov_start == 1:  # the mask token (int mode) looks up to 0
            self.index.setdefault(self.specials[0], 0)
        self.size = start + len(self.tokens)

    def lookup(self, keys):
        out = np.empty(len(keys), np.int64)
        missing = []
        for i, k in enumerate(keys):
            j = self.index.get(k)
            if j is None:
                if self.num_oov == 0:
                    if k not in missing:
                        missing.append(k)
                    j = -1
                elif self.num_oov == 1:
                    j = self.oov_start
                elif self.floormod:
                    j = self.oov_start + int(k) % self.num_oov
                else:  # TF's to_hash_bucket_fast
                    from ...ops._fingerprint import fingerprint64
                    j = self.oov_start + fingerprint64(k) % self.num_oov
            out[i] = j
        if missing:
            shown = " ".join('"' + (m.decode("utf-8", "replace") if isinstance(m, bytes)
                                    else str(m)) + '"' for m in missing)
            raise errors.InvalidArgumentError(
                None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                "Summarized data: b'When `num_oov_indices=0` all inputs should be in "
                f"vocabulary, found OOV values [{shown}], consider setting "
                "`num_oov_indices=1`.'")
        return out


def _not_ready():
    return errors.op_error(errors.FailedPreconditionError, "Table not initialized.",
                           "LookupTableFindV2")


def _key_bytes(v):
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8")
    return b"" if v == 0 else str(v).encode()  # zeros stand for strings in a build call


def _lookup_forward(x, table, strings):
    if table is None:
        raise _not_ready()
    flat = np.asarray(x).reshape(-1)
    keys = [_key_bytes(v) for v in flat] if strings else [int(v) for v in flat]
    return table.lookup(keys).reshape(np.shape(x))


def _invert_forward(x, table, oov_token, strings):
    if table is None:
        raise _not_ready()
    flat = np.asarray(x).reshape(-1).astype(np.int64)
    vocab = table.specials + table.tokens
    oov = _key_bytes(oov_token) if strings else oov_token
    out = [vocab[i] if 0 <= i < len(vocab) else oov for i in flat]
    if strings:
        arr = np.empty(len(out), object)
        arr[:] = [_key_bytes(v) for v in out]
        return string_value(arr.reshape(np.shape(x)))
    return np.asarray(out, np.int64).reshape(np.shape(x))


_LOOKUP = nondifferentiable("LookupTableFindV2", _lookup_forward)
_INVERT = nondifferentiable("LookupTableFindV2Invert", _invert_forward)


def _bucketize_forward(x, boundaries):
    return np.searchsorted(boundaries, np.asarray(x, np.float64), side="right").astype(np.int32)


_BUCKETIZE = nondifferentiable("Bucketize", _bucketize_forward)


# -- text ------------------------------------------------------------------------------------
_PUNCT = b"!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'"


def _standardize(b, how):
    if how in ("lower", "lower_and_strip_punctuation"):
        b = bytes(c + 32 if 65 <= c <= 90 else c for c in b)
    if how in ("strip_punctuation", "lower_and_strip_punctuation"):
        b = b.translate(None, _PUNCT)
    return b


def _split(b, how):
    if how == "whitespace":
        return b.split()
    if how == "character":
        return [c.encode("utf-8") for c in b.decode("utf-8", errors="replace")]
    return [b]


def _ngrams(tokens, widths):
    if widths is None:
        return tokens
    out = []
    for w in widths:
        out.extend(b" ".join(tokens[i:i + w]) for i in range(len(tokens) - w + 1))
    return out


def _tokens(b, standardize, split, widths):
    return _ngrams(_split(_standardize(_key_bytes(b), standardize), split), widths)


def _text_forward(x, table, standardize, split, widths, length, pad):
    """Token ids of each string, padded with ``pad`` to ``length`` (or the longest)."""
    if table is None:
        raise _not_ready()
    x = np.asarray(x, object)
    flat = x.reshape(-1)
    if split is None:  # one token per string: the input's shape
        keys = [_ngrams([_standardize(_key_bytes(b), standardize)], widths) for b in flat]
        return table.lookup([k[0] if k else b"" for k in keys]).reshape(x.shape)
    rows = [table.lookup(_tokens(b, standardize, split, widths)) for b in flat]
    width = length if length is not None else max([len(r) for r in rows] + [0])
    out = np.full((len(rows), width), pad, np.int64)
    for i, r in enumerate(rows):
        r = r[:width]
        out[i, :len(r)] = r
    return out.reshape(x.shape + (width,))


_TEXT = nondifferentiable("TextVectorization", _text_forward)


# -- shared pieces ---------------------------------------------------------------------------
def _batches(data, steps=None):
    """``data`` (a list, array, tensor or Dataset of batches, of which the first ``steps``)
    as a list of NumPy arrays."""
    from ...data.dataset import Dataset
    if isinstance(data, Dataset):
        if steps is not None:
            data = data.take(steps)
        return [np.asarray(b.numpy() if isinstance(b, _TensorLike) else b) for b in data]
    if isinstance(data, _TensorLike):
        return [np.asarray(data.numpy())]
    if isinstance(data, (list, tuple)):
        return [np.asarray(convert_to_tensor(data).numpy())]
    return [np.asarray(data)]


def _as_tensor(x, dtype=None):
    if isinstance(x, _TensorLike):
        return x
    return convert_to_tensor(x, dtype)


def _check_mode(name, mode):
    if mode not in _MODES:
        raise ValueError(f"Unknown value for `output_mode` argument of {name}. Allowed "
                         f"values are: {_MODES}. Received: output_mode={mode}")


class _IndexLookup(Layer):
    """The vocabulary machinery shared by StringLookup, IntegerLookup and TextVectorization."""

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True
    _strings = True

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 sparse=False, pad_to_max_tokens=False, **kwargs):
        super().__init__(**kwargs)
        _check_mode(type(self).__name__, output_mode)
        if sparse:
            raise ValueError("tapeflow's lookup layers do not support `sparse=True`.")
        if invert and output_mode != "int":
            raise ValueError("`output_mode` must be `'int'` when `invert` is true. Received: "
                             f"output_mode={output_mode}")
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError("`idf_weights` should only be set if `output_mode` is "
                             f"`'tf_idf'`. Received: idf_weights={idf_weights} and "
                             f"output_mode={output_mode}")
        if output_mode == "tf_idf" and vocabulary is not None and idf_weights is None:
            raise ValueError("When specifying the `vocabulary` argument, in TF-IDF output "
                             "mode, the `idf_weights` argument must also be provided.")
        self.max_tokens = max_tokens
        self.num_oov_indices = num_oov_indices
        self.mask_token = mask_token
        self.oov_token = oov_token
        self.invert = invert
        self.output_mode = output_mode
        self.sparse = sparse
        self.pad_to_max_tokens = pad_to_max_tokens
        # the constructor's vocabulary (Keras's ``input_vocabulary``): it goes into the
        # config; a vocabulary set later or adapted goes into the ``.keras`` file's assets
        self._given_vocabulary = None
        self._given_idf = None
        self._frozen_size = None  # the config's vocabulary_size, until the table is set
        self._table = None
        self.idf_weights = None
        self._idf = None
        if vocabulary is not None:
            self._given_vocabulary, self._given_idf = self._set_vocabulary(vocabulary,
                                                                           idf_weights)

    # -- vocabulary ----------------------------------------------------------------------
    def _key(self, token):
        return _key_bytes(token) if self._strings else int(token)

    def _specials(self):
        specials = []
        if self.mask_token is not None and self.output_mode == "int":
            specials.append(self._key(self.mask_token))
        specials += [self._key(self.oov_token)] * self.num_oov_indices
        return specials

    def _finish(self, tokens, idf=None, idf_has_specials=False):
        specials = self._specials()
        oov_start = 1 if self.mask_token is not None and self.output_mode == "int" else 0
        self._table = _Table(tokens, specials, oov_start, self.num_oov_indices,
                             not self._strings)
        if self.mask_token is not None and self.output_mode != "int":
            # outside int mode the mask token has no slot: it is left out of the counts
            self._table.index.setdefault(self._key(self.mask_token), -1)
        if self.output_mode == "tf_idf" and idf is not None:
            idf = np.asarray(idf, np.float64)
            if idf_has_specials:  # the special tokens' weights are given (Keras's rule)
                full = idf
            else:  # they get the mean weight
                oov = float(idf.mean()) if idf.size else 0.0
                full = np.concatenate([np.full(len(specials), oov), idf])
            if self.pad_to_max_tokens and self.max_tokens:
                full = np.pad(full, (0, max(self.max_tokens - full.size, 0)))
            from ..._core.variable import Variable
            self._idf = full.astype(np.float32)
            self.idf_weights = Variable(self._idf, trainable=False)

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Use ``vocabulary`` (a list, array or tensor of tokens, optionally led by the
        special tokens; a path to a text file is not supported) and, for tf_idf,
        ``idf_weights`` (one per entry of ``vocabulary``; when it starts with the special
        tokens their weights are taken as given, else they get the mean weight).

        A vocabulary set here (not in the constructor) is not part of ``get_config()``:
        ``model.save`` writes it into the ``.keras`` file's ``assets/`` (as Keras 3).

        Raises:
            ValueError: Keras's texts for a repeated term, tf_idf without idf_weights,
                idf_weights outside tf_idf or of another length than the vocabulary.
        """
        self._set_vocabulary(vocabulary, idf_weights)

    def _set_vocabulary(self, vocabulary, idf_weights):
        """Set the table; return the vocabulary (as given, special tokens included if
        they lead it) and the idf weights as plain lists (the constructor keeps them for
        the config, as Keras's ``input_vocabulary``)."""
        if self.output_mode == "tf_idf" and idf_weights is None:
            raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        if self.output_mode != "tf_idf" and idf_weights is not None:
            raise ValueError("`idf_weights` should only be set if output_mode is "
                             f"`'tf_idf'`. Received: output_mode={self.output_mode} "
                             f"and idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            raise NotImplementedError("tapeflow's lookup layers take the vocabulary as a "
                                      "list, array or tensor, not as a file path.")
        if isinstance(vocabulary, _TensorLike):
            vocabulary = vocabulary.numpy()
        if isinstance(idf_weights, _TensorLike):
            idf_weights = idf_weights.numpy()
        vocab = [self._key(t) for t in np.asarray(vocabulary).reshape(-1).tolist()]
        seen, repeated = set(), []
        lead = vocab[:len(self._specials())]
        found_specials = lead == self._specials()
        for t in vocab[len(lead):] if found_specials else vocab:
            if t in seen and t not in repeated:
                repeated.append(t)
            seen.add(t)
        if repeated:
            shown = [np.str_(t.decode("utf-8")) if self._strings else np.int64(t)
                     for t in repeated]
            raise ValueError("The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are: {shown}")
        if self.output_mode == "tf_idf" and idf_weights is not None:
            if len(vocab) != len(idf_weights):
                raise ValueError("`idf_weights` must be the same length as vocabulary. "
                                 f"len(idf_weights) is {len(idf_weights)}; "
                                 f"len(vocabulary) is {len(vocab)}")
        given = [t.decode("utf-8") if self._strings else t for t in vocab]
        # a vocabulary that starts with the special tokens: the tokens follow them
        self._finish(vocab[len(lead):] if found_specials else vocab, idf_weights,
                     idf_has_specials=found_specials)
        return given, None if idf_weights is None else np.asarray(idf_weights).tolist()

    def _tokens_of(self, batch):
        """The tokens of each document (row) of a NumPy batch, for adapt."""
        if batch.ndim == 0:
            batch = batch.reshape(1)
        if batch.ndim == 1:
            batch = batch.reshape(-1, 1)
        return [[self._key(t) for t in row.reshape(-1).tolist()]
                for row in batch.reshape(batch.shape[0], -1)]

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary of ``data`` (a list, array, tensor or ``tf.data.Dataset``):
        tokens by falling frequency, ties broken by the larger token first (as Keras),
        the special tokens left out, at most ``max_tokens`` entries in all; for tf_idf
        also the inverse document frequencies ``log(1 + docs / (1 + docs_with_token))``."""
        self._adapt_batches(_batches(data, steps))

    def _adapt_batches(self, batches):
        counts, doc_counts, docs = {}, {}, 0
        for batch in batches:
            for row in self._tokens_of(batch):
                docs += 1
                for t in row:
                    counts[t] = counts.get(t, 0) + 1
                for t in set(row):
                    doc_counts[t] = doc_counts.get(t, 0) + 1
        drop = {self._key(self.oov_token)}
        if self.mask_token is not None:
            drop.add(self._key(self.mask_token))
        items = sorted(((c, t) for t, c in counts.items() if t not in drop), reverse=True)
        tokens = [t for _, t in items]
        if self.max_tokens is not None:
            tokens = tokens[:max(self.max_tokens - len(self._specials()), 0)]
        idf = None
        if self.output_mode == "tf_idf":
            idf = [np.log(1.0 + docs / (1.0 + doc_counts[t])) for t in tokens]
        self._given_vocabulary = None
        self._finish(tokens, idf)

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary, special tokens first (as plain Python values) then the tokens (as
        NumPy scalars, as Keras returns them)."""
        if self._table is None:
            return [] if not include_special_tokens else [
                self._plain(t) for t in self._specials()]
        wrap = (lambda t: np.str_(t.decode("utf-8"))) if self._strings else np.int64
        tokens = [wrap(t) for t in self._table.tokens]
        if not include_special_tokens:
            return tokens
        return [self._plain(t) for t in self._table.specials] + tokens

    def _plain(self, t):
        return t.decode("utf-8") if self._strings else t

    def vocabulary_size(self):
        """The number of entries including the special tokens (Keras's count)."""
        if self._table is None:
            return len(self._specials()) if self._given_vocabulary is None else None
        return self._table.size

    def _spec_dtype(self):
        """The dtype Keras's output spec declares: float32 outside int mode (TensorFlow's
        eager outputs are int64 counts all the same)."""
        return None if self.output_mode == "int" or self.invert else "float32"

    def _depth(self):
        if self.pad_to_max_tokens and self.max_tokens is not None:
            return self.max_tokens
        return self._frozen_size if self._table is None else self._table.size

    def _lookup_table(self):
        """The table; while a model is built symbolically (as one rebuilt from its config
        is, before its vocabulary is loaded) an empty one (the special tokens only), if
        the output size is known (int mode, or the config's ``vocabulary_size``)."""
        if self._table is None and (self.output_mode == "int" or self._depth() is not None):
            from .._symbolic import building
            if building:
                table = _Table([], self._specials(),
                               1 if self.mask_token is not None and self.output_mode == "int"
                               else 0, self.num_oov_indices, not self._strings)
                table.size = self._depth() or table.size
                return table
        return self._table

    def _from_ids(self, ids, skip_pad=True, table=None):
        if self.output_mode == "int":
            return ids
        dtype = np.float32 if self.output_mode == "tf_idf" else np.int64
        depth = self._depth() if self._table is not None or table is None else table.size
        idf = self._idf
        if idf is None and self.output_mode == "tf_idf":  # the symbolic stand-in
            idf = np.zeros(depth, np.float32)
        return apply(_ENCODE, (ids,), {"depth": depth, "mode": self.output_mode,
                                       "idf": idf, "dtype": dtype, "skip_pad": skip_pad})

    def call(self, inputs):
        x = _as_tensor(inputs, _dt.string if self._strings else None)
        table = self._lookup_table()
        if self.invert:
            return apply(_INVERT, (x,), {"table": table, "oov_token": self.oov_token,
                                         "strings": self._strings})
        if not self._strings and x.dtype != _dt.int64:
            from ...ops import array_ops as _a
            x = _a.cast(x, _dt.int64)
        ids = apply(_LOOKUP, (x,), {"table": table, "strings": self._strings})
        return self._from_ids(ids, table=table)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = self._depth()
        if self.output_mode == "one_hot" and (not input_shape or input_shape[-1] != 1):
            return tuple(input_shape) + (depth,)
        return tuple(input_shape[:-1]) + (depth,)

    def get_config(self):
        vocab = self._given_vocabulary
        config = dict(super().get_config(), invert=self.invert, max_tokens=self.max_tokens,
                      num_oov_indices=self.num_oov_indices, oov_token=self.oov_token,
                      mask_token=self.mask_token, output_mode=self.output_mode,
                      sparse=self.sparse, pad_to_max_tokens=self.pad_to_max_tokens)
        config.update(self._dtype_config())
        config.update(idf_weights=self._given_idf, vocabulary=vocab,
                      vocabulary_size=self._frozen_size if self._table is None
                      else self._table.size,
                      oov_method="floormod", salt=None)
        return config

    # -- saving (Keras 3's hooks, called by ``model.save`` / ``load_model``) ----------
    def save_own_variables(self, store):
        """Put the tf_idf weights (special tokens' included) into ``store`` under the key
        ``idf_weights`` (the layer's ``vars`` group of a ``.keras``/``.weights.h5`` file);
        other modes store nothing."""
        if self.output_mode == "tf_idf" and self._idf is not None:
            store["idf_weights"] = np.asarray(self._idf, np.float32)

    def load_own_variables(self, store):
        """Take the tf_idf weights from ``store['idf_weights']`` (the vocabulary comes
        after, from :meth:`load_assets`).

        Raises:
            KeyError: in tf_idf mode, when ``store`` has no ``idf_weights``.
        """
        if self.output_mode != "tf_idf":
            return
        from ..._core.variable import Variable
        self._idf = np.asarray(store["idf_weights"], np.float32)
        self.idf_weights = Variable(self._idf, trainable=False)

    def save_assets(self, dir_path):
        """Write the vocabulary, special tokens included, one entry a line (no final
        newline), to ``<dir_path>/vocabulary.txt``, unless it was given to the constructor
        (then the config holds it). Keras 3's file, read back by :meth:`load_assets`."""
        if self._given_vocabulary is not None:
            return
        import os
        text = "\n".join(str(t) for t in self.get_vocabulary(include_special_tokens=True))
        with open(os.path.join(dir_path, "vocabulary.txt"), "w", encoding="utf-8",
                  newline="\n") as f:
            f.write(text)

    def load_assets(self, dir_path):
        """Set the vocabulary from ``<dir_path>/vocabulary.txt`` (see :meth:`save_assets`),
        with the idf weights :meth:`load_own_variables` loaded for tf_idf.

        Raises:
            FileNotFoundError: no such file (the ``.keras`` file lacks this layer's assets).
            ValueError: a line that is not an integer (IntegerLookup); in tf_idf mode, no
                or mismatched idf weights.
        """
        if self._given_vocabulary is not None:
            return
        import os
        if dir_path is None:
            raise FileNotFoundError(f"No assets were saved for layer '{self.name}' (its "
                                    "`vocabulary.txt` is missing).")
        with open(os.path.join(dir_path, "vocabulary.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        values = lines if self._strings else [int(line) for line in lines]
        idf = self._idf if self.output_mode == "tf_idf" else None
        self._set_vocabulary(np.asarray(values, object if self._strings else np.int64), idf)

    def _dtype_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        """A layer from :meth:`get_config`; ``vocabulary_size`` sizes the outputs until
        the vocabulary (an asset of the ``.keras`` file) is loaded."""
        config = dict(config)
        size = config.pop("vocabulary_size", None)
        if config.pop("oov_method", "floormod") != "floormod" or config.pop("salt", None):
            raise ValueError(f"tapeflow's {cls.__name__} supports only oov_method='floormod' "
                             "without a salt.")
        layer = super().from_config(config)
        layer._frozen_size = size
        return layer


class StringLookup(_IndexLookup):
    """Strings to integer indices through a vocabulary (``tf.keras.layers.StringLookup``).

    Index layout: ``[mask_token]`` (int mode, when set), ``num_oov_indices`` OOV slots,
    then the vocabulary; with several OOV slots an unknown string goes to slot
    ``Fingerprint64(s) mod num_oov_indices`` (``tf.strings.to_hash_bucket_fast``).
    Output: int64 indices (input shape) for ``output_mode='int'``;
    int64 one_hot (a new last axis unless the last one has size 1) / multi_hot / count
    (the last axis reduced to the vocabulary size); float32 tf_idf. ``invert=True`` maps
    indices back to strings (out of range -> ``oov_token``).

    Raises:
        ValueError: bad ``output_mode``, a repeated vocabulary term, tf_idf vocabulary
            without ``idf_weights`` (Keras's texts).
        FailedPreconditionError: called before a vocabulary is set or adapted.
        InvalidArgumentError: an unknown token with ``num_oov_indices=0``.
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 pad_to_max_tokens=False, sparse=False, encoding="utf-8", name=None, **kwargs):
        if encoding != "utf-8":
            raise ValueError("tapeflow's StringLookup supports only encoding='utf-8'.")
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         idf_weights=idf_weights, invert=invert, output_mode=output_mode,
                         sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         **kwargs)

    def get_config(self):
        return dict(super().get_config(), encoding=self.encoding)


class IntegerLookup(_IndexLookup):
    """Integers to contiguous indices through a vocabulary (``tf.keras.layers.IntegerLookup``).

    As :class:`StringLookup` with integer tokens (``oov_token=-1``); inputs of any numeric
    dtype are cast to int64; with ``num_oov_indices > 1`` an unknown value ``v`` goes to
    OOV slot ``v mod num_oov_indices``. ``invert=True`` gives int64 values.
    """

    _strings = False

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 output_mode="int", sparse=False, vocabulary=None, vocabulary_dtype="int64",
                 idf_weights=None, invert=False, name=None, **kwargs):
        if vocabulary_dtype != "int64":
            raise ValueError("tapeflow's IntegerLookup supports only vocabulary_dtype='int64'.")
        self.vocabulary_dtype = vocabulary_dtype
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         idf_weights=idf_weights, invert=invert, output_mode=output_mode,
                         sparse=sparse, name=name, **kwargs)

    def _dtype_config(self):
        return {"vocabulary_dtype": self.vocabulary_dtype}


class CategoryEncoding(Layer):
    """Integer categories to one_hot / multi_hot / count vectors
    (``tf.keras.layers.CategoryEncoding``), dtype the layer's (float32).

    one_hot appends an axis of size ``num_tokens`` (replacing a last axis of size 1; a
    scalar gives shape ``(1, num_tokens)``); multi_hot and count reduce the last axis.
    ``call(inputs, count_weights=None)`` weights the counts. Values >= num_tokens are
    dropped (as TensorFlow's bincount).

    Raises:
        ValueError: no ``num_tokens`` or an unknown ``output_mode`` (Keras's texts).
        InvalidArgumentError: a negative value (``DenseBincount``'s text).
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("one_hot", "multi_hot", "count"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of "
                             "tokens is not known beforehand, use the IntegerLookup layer "
                             "instead.")
        if sparse:
            raise ValueError("tapeflow's CategoryEncoding does not support `sparse=True`.")
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse

    def call(self, inputs, count_weights=None):
        x = _as_tensor(inputs)
        args = (x,) if count_weights is None else (x, _as_tensor(count_weights))
        return apply(_ENCODE, args, {"depth": self.num_tokens, "mode": self.output_mode,
                                     "idf": None, "dtype": self.dtype_policy._np,
                                     "skip_pad": False})

    def compute_output_shape(self, input_shape):
        if self.output_mode == "one_hot" and (not input_shape or input_shape[-1] != 1):
            return tuple(input_shape) + (self.num_tokens,)
        return tuple(input_shape[:-1]) + (self.num_tokens,)

    def get_config(self):
        return dict(super().get_config(), num_tokens=self.num_tokens,
                    output_mode=self.output_mode)


def _summarize(values, epsilon):
    """A weighted quantile summary of ``values`` (float32): every ``step``-th sorted value
    from the ``step``-th on, weighted ``step`` (Keras 3's Discretization sketch), as a
    (2, n) array of values and weights."""
    values = np.sort(np.asarray(values, np.float32).reshape(-1))
    step = max(values.size / (1.0 / epsilon), 1)
    picked = values[int(step - 1)::int(step)]
    return np.stack([picked, np.ones_like(picked) * step])


def _compress(summary, epsilon):
    """The summary re-cut at the ``epsilon`` quantiles of its cumulative weights."""
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum = summary[1].cumsum()
    frac = cum / cum[-1]
    bins = np.interp(percents, frac, summary[0])
    cum_at = np.interp(percents, frac, cum)
    weights = cum_at - np.concatenate([[0.0], cum_at[:-1]])
    return np.stack([bins, weights]).astype(np.float32)


def _merge(new, old, epsilon):
    merged = np.concatenate([new, old], axis=1)
    merged = merged[:, np.argsort(merged[0])]
    return _compress(merged, epsilon)


class Discretization(Layer):
    """Bucket ids of numeric features (``tf.keras.layers.Discretization``).

    With ``bin_boundaries`` ``[b0, b1, ...]`` the output is ``i`` such that
    ``b[i-1] <= x < b[i]`` (int32, the input's shape); with ``num_bins`` the boundaries
    come from :meth:`adapt` (Keras 3's approximate quantiles with ``epsilon``). Other
    output modes (one_hot, multi_hot, count) give float32 vectors of size num_bins.

    Raises:
        ValueError: both or neither of ``num_bins``/``bin_boundaries``; calling before
            adapt (Keras's texts).
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, dtype=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                             f"{('int', 'one_hot', 'multi_hot', 'count')}. Received: "
                             f"output_mode={output_mode}")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. "
                             f"Received: `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        if sparse:
            raise ValueError("tapeflow's Discretization does not support `sparse=True`.")
        self.num_bins = num_bins
        self.epsilon = epsilon
        self.output_mode = output_mode
        self.sparse = sparse
        self._dtype_name = dtype or "float32"
        self.bin_boundaries = None if bin_boundaries is None else list(bin_boundaries)
        self._summary = None

    def adapt(self, data, batch_size=None, steps=None):
        """Learn ``num_bins - 1`` boundaries from ``data``: an array or tensor (one batch),
        a ``tf.data.Dataset`` or any other iterable of batches (a list is one)."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                             "with `bin_boundaries`, use `num_bins` instead.")
        from ...data.dataset import Dataset
        if isinstance(data, Dataset):
            if steps is not None:
                data = data.take(steps)
            batches = [b.numpy() if isinstance(b, _TensorLike) else b for b in data]
        elif isinstance(data, (np.ndarray, _TensorLike)) or not hasattr(data, "__iter__"):
            batches = [data.numpy() if isinstance(data, _TensorLike) else data]
        else:  # any other iterable is one of batches, as in Keras
            batches = list(data)
        summary = np.zeros((2, 0), np.float32)
        for batch in batches:
            summary = _merge(_summarize(batch, self.epsilon), summary, self.epsilon)
        self._summary = summary
        self.bin_boundaries = _compress(summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at "
                             "construction time or call `adapt(dataset)` before you can "
                             "start using the `Discretization` layer.")
        x = _as_tensor(inputs)
        bounds = np.asarray(self.bin_boundaries, np.float32).astype(np.float64)
        ids = apply(_BUCKETIZE, (x,), {"boundaries": bounds})
        if self.output_mode == "int":
            return ids
        return apply(_ENCODE, (ids,), {"depth": len(self.bin_boundaries) + 1,
                                       "mode": self.output_mode, "idf": None,
                                       "dtype": np.float32, "skip_pad": False})

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = None if self.bin_boundaries is None else len(self.bin_boundaries) + 1
        if self.output_mode == "one_hot" and (not input_shape or input_shape[-1] != 1):
            return tuple(input_shape) + (depth,)
        return tuple(input_shape[:-1]) + (depth,)

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": self._dtype_name}

    @classmethod
    def from_config(cls, config):
        """A layer from :meth:`get_config` (an adapted layer's config has both
        ``num_bins`` and ``bin_boundaries``: the boundaries are set after creation)."""
        config = dict(config)
        bounds = None
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            bounds = config.pop("bin_boundaries")
        layer = cls(**config)
        if bounds is not None:
            layer.bin_boundaries = list(bounds)
        return layer


_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")


class _TextLookup(_IndexLookup):
    """The vocabulary part of TextVectorization: adapt counts the tokens of each string."""

    def __init__(self, text_options, **kwargs):
        self._text_options = text_options  # (standardize, split, ngram widths)
        super().__init__(**kwargs)

    def _tokens_of(self, batch):
        batch = np.asarray(batch, object)
        if batch.ndim == 2 and batch.shape[-1] == 1:
            batch = batch[:, 0]
        return [_tokens(b, *self._text_options) for b in batch.reshape(-1)]


class TextVectorization(Layer):
    """Strings to token ids or token vectors (``tf.keras.layers.TextVectorization``).

    Each string is standardized (``lower_and_strip_punctuation``: ASCII lower case, ASCII
    punctuation removed; ``lower``; ``strip_punctuation``; None; or a callable on the
    string tensor), split (``whitespace``, ``character`` or None), turned into ngrams
    (``ngrams=n``: widths 1..n; a tuple: those widths; joined by a space), and looked up in
    the vocabulary (``''`` mask at 0 and ``'[UNK]'`` at 1 in int mode; ``'[UNK]'`` at 0
    otherwise). Input: strings of shape (batch,) or (batch, 1), or a scalar.
    Output: int64 ids (batch, longest or ``output_sequence_length``), zero-padded;
    int64 multi_hot/count or float32 tf_idf of shape (batch, vocabulary size or
    ``max_tokens`` with ``pad_to_max_tokens``).

    Raises:
        ValueError: an unknown ``output_mode``/``standardize``/``split``,
            ``output_sequence_length`` outside int mode (Keras's texts).
        FailedPreconditionError: called before ``adapt``/``vocabulary``.
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        _check_mode("TextVectorization", output_mode)
        if not (standardize is None or callable(standardize) or standardize in _STANDARDIZE):
            raise ValueError("Unknown value for `standardize` argument of TextVectorization. "
                             f"Allowed values are: {_STANDARDIZE}. Received: "
                             f"standardize={standardize}")
        if callable(split):
            raise NotImplementedError("tapeflow's TextVectorization takes split='whitespace', "
                                      "'character' or None, not a callable.")
        if not (split is None or split in _SPLIT):
            raise ValueError("Unknown value for `split` argument of TextVectorization. "
                             f"Allowed values are: {_SPLIT}. Received: split={split}")
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError("`output_sequence_length` must not be set if `output_mode` is "
                             f"not 'int'. Received output_sequence_length="
                             f"{output_sequence_length}.")
        if ragged or sparse:
            raise ValueError("tapeflow's TextVectorization does not support ragged or "
                             "sparse outputs.")
        if isinstance(ngrams, int) and not isinstance(ngrams, bool):
            self._widths = tuple(range(1, ngrams + 1))
        elif ngrams is None:
            self._widths = None
        else:
            self._widths = tuple(ngrams)
        self.max_tokens = max_tokens
        self.standardize = standardize
        self._standardize_mode = None if callable(standardize) else standardize
        self.split = split
        self.ngrams = ngrams
        self.output_mode = output_mode
        self.output_sequence_length = output_sequence_length
        self.pad_to_max_tokens = pad_to_max_tokens
        self.sparse = sparse
        self.ragged = ragged
        self.encoding = encoding
        self._lookup_layer = _TextLookup(
            (self._standardize_mode, split, self._widths), max_tokens=max_tokens,
            num_oov_indices=1, mask_token="", oov_token="[UNK]",
            vocabulary=vocabulary, idf_weights=idf_weights, output_mode=output_mode,
            pad_to_max_tokens=pad_to_max_tokens, name=_naming.auto_name("StringLookup"))

    def _standardized(self, data):
        if not callable(self.standardize):
            return data
        return [np.asarray(self.standardize(convert_to_tensor(b)).numpy()) for b in data]

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary (and idf weights) of ``data``: a list or array of strings,
        a string tensor or a ``tf.data.Dataset`` of them."""
        self._lookup_layer._adapt_batches(self._standardized(_batches(data, steps)))

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Use ``vocabulary`` (without '' and '[UNK]') and, for tf_idf, ``idf_weights``."""
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights)

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary ('' and '[UNK]' first in int mode; '[UNK]' first otherwise)."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        """The number of entries of the vocabulary including the special tokens."""
        return self._lookup_layer.vocabulary_size()

    def call(self, inputs):
        x = _as_tensor(inputs, _dt.string)
        if callable(self.standardize):
            x = self.standardize(x)
        if x.ndim == 2 and x.shape[-1] == 1 and self.split is not None:
            from ...ops import array_ops as _a
            x = _a.squeeze(x, -1)
        lookup = self._lookup_layer
        table = lookup._lookup_table()
        int_mode = self.output_mode == "int"
        ids = apply(_TEXT, (x,), {"table": table, "standardize": self._standardize_mode,
                                  "split": self.split, "widths": self._widths,
                                  "length": self.output_sequence_length if int_mode else None,
                                  "pad": 0 if int_mode else -1})
        if int_mode:
            return ids
        out = lookup._from_ids(ids, skip_pad=True, table=table)
        if self.output_mode == "one_hot" and ids.ndim == 2:
            # one vector per token: a RaggedTensor of each string's tokens, as Keras gives
            from ...ops import array_ops as _a
            from ...ops import math_ops as _m
            from ...ops import reduction_ops as _r
            from ...ops.ragged.ragged_tensor import RaggedTensor
            lengths = _r.reduce_sum(_a.cast(_m.greater_equal(ids, 0), _dt.int64), axis=-1)
            return RaggedTensor.from_tensor(out, lengths=lengths)
        return out

    # -- saving: the vocabulary and idf weights are the lookup layer's ----------------
    def save_own_variables(self, store):
        """The tf_idf weights, as :meth:`StringLookup.save_own_variables`."""
        self._lookup_layer.save_own_variables(store)

    def load_own_variables(self, store):
        """The tf_idf weights, as :meth:`StringLookup.load_own_variables`."""
        self._lookup_layer.load_own_variables(store)

    def save_assets(self, dir_path):
        """``vocabulary.txt``, as :meth:`StringLookup.save_assets`."""
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path):
        """``vocabulary.txt``, as :meth:`StringLookup.load_assets`."""
        self._lookup_layer.load_assets(dir_path)

    def _spec_dtype(self):
        return None if self.output_mode == "int" else "float32"

    def compute_output_shape(self, input_shape):
        batch = input_shape[0] if input_shape else None
        if self.output_mode == "int":
            return (batch, self.output_sequence_length)
        return (batch, self._lookup_layer._depth())

    def get_config(self):
        lookup = self._lookup_layer
        return dict(super().get_config(), max_tokens=self.max_tokens,
                    standardize=self.standardize, split=self.split, ngrams=self.ngrams,
                    output_mode=self.output_mode,
                    output_sequence_length=self.output_sequence_length,
                    pad_to_max_tokens=self.pad_to_max_tokens, sparse=self.sparse,
                    ragged=self.ragged, vocabulary=lookup._given_vocabulary,
                    idf_weights=lookup._given_idf, encoding=self.encoding,
                    vocabulary_size=lookup.vocabulary_size())

    @classmethod
    def from_config(cls, config):
        """A layer from :meth:`get_config`; ``vocabulary_size`` sizes the outputs until
        the vocabulary (an asset of the ``.keras`` file) is loaded."""
        config = dict(config)
        size = config.pop("vocabulary_size", None)
        layer = super().from_config(config)
        layer._lookup_layer._frozen_size = size
        return layer


def _hash_key(v):
    """The bytes TF hashes for one element: strings as they are, numbers as their decimal
    text (floats first truncated to int64, as Keras casts them)."""
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, (float, np.floating)):
        v = int(np.int64(v))
    return str(int(v)).encode()


def _hash_forward(x, num_bins, mask_value, salt):
    from ...ops._fingerprint import fingerprint64, siphash24
    flat = np.asarray(x).reshape(-1)
    bins = num_bins
    masked = mask_value is not None and num_bins > 1
    if masked:
        bins -= 1
        mask_key = _key_bytes(mask_value) if isinstance(mask_value, (str, bytes)) \
            else mask_value
    out = np.empty(len(flat), np.int64)
    for i, v in enumerate(flat):
        key = _hash_key(v)
        is_mask = masked and (key == mask_key if isinstance(v, bytes) else v == mask_key)
        if salt is None:
            h = fingerprint64(key) % bins
        else:
            h = siphash24(salt[0] & (2 ** 64 - 1), salt[1] & (2 ** 64 - 1), key) % bins
        out[i] = 0 if is_mask else h + masked
    return out.reshape(np.shape(x))


_HASH = nondifferentiable("Hashing", _hash_forward)


class Hashing(Layer):
    """Values hashed into ``num_bins`` bins (``tf.keras.layers.Hashing``).

    Strings are hashed as they are, integers as their decimal text (floats are truncated
    to int64 first), with FarmHash ``Fingerprint64`` (``tf.strings.to_hash_bucket_fast``)
    or, given a ``salt``, SipHash-2-4 keyed by it (``to_hash_bucket_strong``): the same
    bins as TensorFlow's. With ``mask_value`` bin 0 is kept for it and the others shift
    by one. Output: int64 bins (the input's shape) or float32 one_hot / multi_hot / count.

    Raises:
        ValueError: ``num_bins`` None or not positive, a bad ``salt`` or ``output_mode``
            (Keras's texts).
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{('int', 'one_hot', 'multi_hot', 'count')}. Received: "
                             f"output_mode={output_mode}")
        if sparse:
            raise ValueError("tapeflow's Hashing does not support `sparse=True`.")
        self.num_bins = num_bins
        self.mask_value = mask_value
        self.output_mode = output_mode
        self.sparse = sparse
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = list(salt)
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `Hashing` can only be a tuple of "
                                 f"size 2 integers, or a single integer. Received: salt={salt}.")

    def call(self, inputs):
        x = _as_tensor(inputs)
        if self.mask_value is not None and (
                isinstance(self.mask_value, (str, bytes)) != (x.dtype == _dt.string)):
            name = "float" if x.dtype == _dt.float32 else x.dtype.name
            raise TypeError(f"Cannot convert {self.mask_value!r} to EagerTensor of dtype "
                            f"{name}")
        if self.output_mode == "one_hot" and x.ndim and x.shape[-1] == 1:
            from ...ops import array_ops as _a
            x = _a.squeeze(x, -1)
        ids = apply(_HASH, (x,), {"num_bins": self.num_bins, "mask_value": self.mask_value,
                                  "salt": None if self.salt is None else tuple(self.salt)})
        if self.output_mode == "int":
            return ids
        return apply(_ENCODE, (ids,), {"depth": self.num_bins, "mode": self.output_mode,
                                       "idf": None, "dtype": self.dtype_policy._np,
                                       "skip_pad": False})

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        if not input_shape:
            return (self.num_bins,)
        return tuple(input_shape[:-1]) + (self.num_bins,)

    def get_config(self):
        return dict(super().get_config(), num_bins=self.num_bins, salt=self.salt,
                    mask_value=self.mask_value, output_mode=self.output_mode,
                    sparse=self.sparse)


_CROSS_KEY = 0xDECAFCAFFE  # tf.sparse.cross_hashed's default hash_key


def _cross_forward(*cols, num_bins):
    from ...ops._fingerprint import fingerprint64, fingerprint_cat64
    shape = np.shape(cols[0])
    flats = [np.asarray(c).reshape(-1) for c in cols]
    out = np.empty(len(flats[0]), np.int64)
    buckets = num_bins if num_bins > 0 else 2 ** 63 - 1
    for r in range(len(out)):
        h = _CROSS_KEY
        for f in flats:
            v = f[r]
            fv = fingerprint64(_key_bytes(v)) if isinstance(v, (bytes, str)) \
                else int(v) & (2 ** 64 - 1)
            h = fingerprint_cat64(h, fv)
        out[r] = h % buckets
    return out.reshape(shape)


_CROSS = nondifferentiable("SparseCrossHashed", _cross_forward)


class HashedCrossing(Layer):
    """The hashed cross of two or more categorical features (``tf.keras.layers.
    HashedCrossing``): per row, ``tf.sparse.cross_hashed``'s FarmHash fingerprint chain of
    the features' values (strings fingerprinted, integers taken as they are) modulo
    ``num_bins``. Inputs: a list of tensors of shape (), (batch,) or (batch, 1), strings
    or integers. Output: int64 bins of the first input's shape, or float32 one_hot.

    Raises:
        ValueError: not a list of at least two inputs, a bad input shape or
            ``output_mode`` (Keras's texts).
    """

    _cast_kinds = ""
    _allow_non_tensor_positional_args = True

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None,
                 **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, **kwargs)
        if output_mode not in ("int", "one_hot"):
            raise ValueError(f"Unknown value for `output_mode` argument of HashedCrossing. "
                             f"Allowed values are: ('int', 'one_hot'). Received: "
                             f"output_mode={output_mode}")
        if sparse:
            raise ValueError("tapeflow's HashedCrossing does not support `sparse=True`.")
        self.num_bins = num_bins
        self.output_mode = output_mode
        self.sparse = sparse

    def __call__(self, inputs, *args, **kwargs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("`HashedCrossing` should be called on a list or tuple of "
                             f"inputs. Received: inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError("`HashedCrossing` should be called on at least two inputs. "
                             f"Received: inputs={inputs}")
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs):
        xs = [_as_tensor(x) for x in inputs]
        shape = tuple(xs[0].shape)
        if len(shape) > 2 or (len(shape) == 2 and shape[-1] != 1):
            raise ValueError("All `HashedCrossing` inputs should have shape `()`, "
                             "`(batch_size)` or `(batch_size, 1)`. "
                             f"Received: inputs={inputs}")
        ids = apply(_CROSS, tuple(xs), {"num_bins": self.num_bins})
        if self.output_mode == "int":
            return ids
        return apply(_ENCODE, (ids,), {"depth": self.num_bins, "mode": "one_hot",
                                       "idf": None, "dtype": self.dtype_policy._np,
                                       "skip_pad": False})

    def compute_output_shape(self, input_shape):
        first = tuple(input_shape[0])
        if self.output_mode == "int":
            return first
        if first and first[-1] != 1:
            return first + (self.num_bins,)
        return first[:-1] + (self.num_bins,)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": self.dtype_policy.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
