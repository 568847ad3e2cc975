"""``tf.keras.layers.TextVectorization``: standardize, split, n-grams, then a vocabulary
lookup (ints, multi-hot, counts or tf-idf)."""
from ...._core import dtypes as _dt
from ...._core.backend import np
from ...._core.dispatch import apply
from ...._core.registry import nondifferentiable
from ...._core.tensor import convert_to_tensor
from ... import _naming
from ..layer import Layer
from ._utils import _as_tensor, _batches, _check_mode, _key_bytes, _not_ready
from .index_lookup import _IndexLookup

__all__ = ["TextVectorization"]

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
            from ....ops import array_ops as _a
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
            from ....ops import array_ops as _a
            from ....ops import math_ops as _m
            from ....ops import reduction_ops as _r
            from ....ops.ragged.ragged_tensor import RaggedTensor
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
