"""The vocabulary machinery of StringLookup, IntegerLookup and TextVectorization (Keras 3's
``IndexLookup``): the table, the ``LookupTableFindV2`` primitives and ``adapt``."""
from ...._core import dtypes as _dt
from ...._core import errors
from ...._core.backend import np
from ...._core.dispatch import apply
from ...._core.registry import nondifferentiable
from ...._core.tensor import _TensorLike, string_value
from ..layer import Layer
from ._utils import _ENCODE, _as_tensor, _batches, _check_mode, _key_bytes, _not_ready


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
                    from ....ops._fingerprint import fingerprint64
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
            from ...._core.variable import Variable
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
            from ..._symbolic import building
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
            from ....ops import array_ops as _a
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
        from ...._core.variable import Variable
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
