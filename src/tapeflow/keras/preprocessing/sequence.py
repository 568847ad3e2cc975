"""``tf.keras.preprocessing.sequence``: Keras 1's sequence utilities, as TF 2.21 still exposes
them (``pad_sequences``, ``TimeseriesGenerator``, ``make_sampling_table``, ``skipgrams``)."""
import random

from ..._core.backend import np
from ..utils.py_dataset import PyDataset
from ..utils.sequence_utils import pad_sequences

__all__ = ["TimeseriesGenerator", "make_sampling_table", "pad_sequences", "skipgrams"]


class TimeseriesGenerator(PyDataset):
    """Batches of windows over a time series with the target that follows each window
    (``tf.keras.preprocessing.sequence.TimeseriesGenerator``, deprecated in Keras).

    Batch ``index`` holds, for the rows ``r = start_index + length + batch_size * stride *
    index + stride * k``, the samples ``data[r - length:r:sampling_rate]`` and ``targets[r]``.

    Args:
        data, targets: indexables of the same length (time along axis 0).
        length: the window length, in time steps.
        sampling_rate: the step between samples in a window.
        stride: the step between consecutive windows.
        start_index, end_index: the rows used (``end_index`` default ``len(data) - 1``).
        shuffle: draw the rows at random (``np.random.randint``) instead.
        reverse: windows in reverse time order.
        batch_size: windows per batch.
        **kwargs: ``workers``, ``use_multiprocessing``, ``max_queue_size`` (PyDataset).

    Raises:
        ValueError: for ``data`` and ``targets`` of different lengths, or a start past the end.
    """

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0,
                 end_index=None, shuffle=False, reverse=False, batch_size=128, **kwargs):
        super().__init__(**kwargs)
        if len(data) != len(targets):
            raise ValueError("Data and targets have to be of same length. Data length is "
                             f"{len(data)} while target length is {len(targets)}")
        self.data, self.targets = data, targets
        self.length, self.sampling_rate, self.stride = length, sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index="
                             f"{self.end_index}` is disallowed, as no part of the sequence "
                             "would be left to be used as current step.")

    def __len__(self):
        span = self.batch_size * self.stride
        return (self.end_index - self.start_index + span) // span

    def __getitem__(self, index):
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            first = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(first, min(first + self.batch_size * self.stride,
                                        self.end_index + 1), self.stride)
        samples = np.array([self.data[r - self.length:r:self.sampling_rate] for r in rows])
        targets = np.array([self.targets[r] for r in rows])
        return (samples[:, ::-1, ...], targets) if self.reverse else (samples, targets)


def make_sampling_table(size, sampling_factor=1e-5):
    """The probability of keeping the word of each frequency rank in ``skipgrams``
    (word2vec's subsampling with Zipf's law; ``size`` float64 values, at most 1).

    Rank ``r``'s (1 for index 0) frequency is taken as ``1 / (r (ln r + 0.577) + 1/2 -
    1/(12 r))``; the table is ``min(1, sqrt(sampling_factor / frequency))``.
    """
    rank = np.arange(size)
    rank[0] = 1
    inv_freq = rank * (np.log(rank) + 0.577) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inv_freq
    return np.minimum(1.0, f / np.sqrt(f))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True,
              categorical=False, sampling_table=None, seed=None):
    """Word2vec training pairs from a sequence of word indices
    (``tf.keras.preprocessing.sequence.skipgrams``).

    Every non-zero word is paired with the non-zero words within ``window_size`` of it
    (label 1); then ``int(negative_samples * positives)`` pairs of a shuffled first word and a
    random word in ``[1, vocabulary_size)`` get label 0. Uses Python's ``random`` exactly as
    Keras does (same pairs for the same ``random`` state and ``seed``).

    Args:
        sequence: word indices (0 is skipped).
        vocabulary_size: the vocabulary size (maximum index + 1).
        window_size: the half-width of the context window.
        negative_samples: the ratio of negative to positive pairs.
        shuffle, seed: shuffle the pairs (with ``random.seed(seed)``).
        categorical: labels as ``[0, 1]``/``[1, 0]`` instead of 1/0.
        sampling_table: keep word ``w`` with probability ``sampling_table[w]``.

    Returns:
        ``(couples, labels)``: lists of ``[word, context]`` and of labels.
    """
    couples, labels = [], []
    for i, wi in enumerate(sequence):
        if not wi:
            continue
        if sampling_table is not None and sampling_table[wi] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([wi, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, vocabulary_size - 1)]
                    for i in range(count)]
        labels += [[1, 0]] * count if categorical else [0] * count
    if shuffle:
        if seed is None:
            seed = random.randint(0, 10_000_000)
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels
