"""``tf.keras.preprocessing.text``: Keras 1's text utilities, as TF 2.21 still exposes them
(``Tokenizer``, ``text_to_word_sequence``, ``one_hot``, ``hashing_trick``,
``tokenizer_from_json``). New code uses ``keras.layers.TextVectorization``."""
import collections
import hashlib
import json
import warnings

from ..._core.backend import np

__all__ = ["Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence",
           "tokenizer_from_json"]

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text, filters=FILTERS, lower=True, split=" "):
    """The words of a text: lower-cased, every character of ``filters`` turned into
    ``split``, split on ``split``, empty pieces dropped."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [w for w in input_text.split(split) if w]


def hashing_trick(text, n, hash_function=None, filters=FILTERS, lower=True, split=" ",
                  analyzer=None):
    """Each word of ``text`` as ``hash(word) % (n - 1) + 1`` (indices 1 to n - 1).

    Args:
        hash_function: a callable, 'md5' (stable across runs) or None (Python's ``hash``,
            salted per process for strings).
        analyzer: a callable splitting the text instead of :func:`text_to_word_sequence`.
    """
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        def hash_function(w):
            return int(hashlib.md5(w.encode()).hexdigest(), 16)
    words = (text_to_word_sequence(text, filters=filters, lower=lower, split=split)
             if analyzer is None else analyzer(text))
    return [hash_function(w) % (n - 1) + 1 for w in words]


def one_hot(input_text, n, filters=FILTERS, lower=True, split=" ", analyzer=None):
    """:func:`hashing_trick` with Python's ``hash`` (despite its name, word indices)."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower,
                         split=split, analyzer=analyzer)


class Tokenizer:
    """Word (or character) indexing of texts by frequency
    (``tf.keras.preprocessing.text.Tokenizer``, deprecated in Keras).

    ``fit_on_texts`` counts words; ``word_index`` ranks them by count (ties in first-seen
    order) from 1 (the ``oov_token``, when given, takes 1); ``texts_to_sequences`` keeps the
    words ranked below ``num_words``; ``texts_to_matrix`` gives 'binary', 'count', 'freq' or
    'tfidf' rows of width ``num_words`` (or vocabulary + 1).

    Raises:
        TypeError: for unknown keyword arguments.
    """

    def __init__(self, num_words=None, filters=FILTERS, lower=True, split=" ",
                 char_level=False, oov_token=None, analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed "
                          "`num_words`.", stacklevel=2)
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words, self.document_count = num_words, document_count
        self.char_level, self.oov_token, self.analyzer = char_level, oov_token, analyzer
        self.index_docs = collections.defaultdict(int)
        self.word_index, self.index_word = {}, {}

    def _words(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is None:
            return text_to_word_sequence(text, filters=self.filters, lower=self.lower,
                                         split=self.split)
        return self.analyzer(text)

    def fit_on_texts(self, texts):
        """Count the words of ``texts`` (strings, or lists of tokens) and rebuild the index."""
        for text in texts:
            self.document_count += 1
            seq = self._words(text)
            for w in seq:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(seq):
                self.word_docs[w] += 1
        ranked = sorted(self.word_counts.items(), key=lambda wc: wc[1], reverse=True)
        vocab = ([] if self.oov_token is None else [self.oov_token]) + [w for w, _ in ranked]
        self.word_index = dict(zip(vocab, range(1, len(vocab) + 1)))
        self.index_word = {i: w for w, i in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences):
        """Count the documents each index appears in (for 'tfidf' on sequences)."""
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences(self, texts):
        """Each text as a list of word indices (see the class)."""
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        oov = self.word_index.get(self.oov_token)
        for text in texts:
            vect = []
            for w in self._words(text):
                i = self.word_index.get(w)
                if i is not None:
                    if self.num_words and i >= self.num_words:
                        if oov is not None:
                            vect.append(oov)
                    else:
                        vect.append(i)
                elif self.oov_token is not None:
                    vect.append(oov)
            yield vect

    def sequences_to_texts(self, sequences):
        """Each sequence of indices back to a space-joined text."""
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        oov = self.word_index.get(self.oov_token)
        for seq in sequences:
            words = []
            for num in seq:
                word = self.index_word.get(num)
                if word is not None:
                    if self.num_words and num >= self.num_words:
                        if oov is not None:
                            words.append(self.index_word[oov])
                    else:
                        words.append(word)
                elif self.oov_token is not None:
                    words.append(self.index_word[oov])
            yield " ".join(words)

    def texts_to_matrix(self, texts, mode="binary"):
        """:meth:`sequences_to_matrix` of the texts' sequences."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """A float64 ``(len(sequences), num_words)`` matrix: per row, 'binary' presence,
        'count', 'freq' (count / length) or 'tfidf' ``(1 + ln count) * ln(1 + docs / (1 +
        docs containing the word))``.

        Raises:
            ValueError: without ``num_words`` nor a fitted vocabulary, for 'tfidf' before any
                fit, or for an unknown mode.
        """
        if not self.num_words:
            if not self.word_index:
                raise ValueError("Specify a dimension (`num_words` argument), or fit on some "
                                 "text data first.")
            num_words = len(self.word_index) + 1
        else:
            num_words = self.num_words
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        x = np.zeros((len(sequences), num_words))
        for row, seq in enumerate(sequences):
            if not seq:
                continue
            counts = collections.defaultdict(int)
            for j in seq:
                if j < num_words:
                    counts[j] += 1
            for j, c in list(counts.items()):
                if mode == "count":
                    x[row][j] = c
                elif mode == "freq":
                    x[row][j] = c / len(seq)
                elif mode == "binary":
                    x[row][j] = 1
                elif mode == "tfidf":
                    x[row][j] = (1 + np.log(c)) * np.log(
                        1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                else:
                    raise ValueError("Unknown vectorization mode:", mode)
        return x

    def get_config(self):
        """The settings and the fitted state, the state as JSON strings."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower,
                "split": self.split, "char_level": self.char_level,
                "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts),
                "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs),
                "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs):
        """``{"class_name": "Tokenizer", "config": get_config()}`` as JSON."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)


def tokenizer_from_json(json_string):
    """A :class:`Tokenizer` from :meth:`Tokenizer.to_json`'s string."""
    config = json.loads(json_string).get("config")
    word_counts = json.loads(config.pop("word_counts"))
    word_docs = json.loads(config.pop("word_docs"))
    index_docs = {int(k): v for k, v in json.loads(config.pop("index_docs")).items()}
    index_word = {int(k): v for k, v in json.loads(config.pop("index_word")).items()}
    word_index = json.loads(config.pop("word_index"))
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts, tokenizer.word_docs = word_counts, word_docs
    tokenizer.index_docs, tokenizer.word_index = index_docs, word_index
    tokenizer.index_word = index_word
    return tokenizer
