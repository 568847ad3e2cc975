"""Boston housing prices (Harrison & Rubinfeld 1978): 506 rows of 13 features and the median
value in k$ (``tf.keras.datasets.boston_housing``)."""
from ..._core.backend import np
from ..utils.file_utils import get_file
from ._files import ORIGIN_FOLDER, split_shuffled

__all__ = ["load_data"]

SHA256 = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """``(x_train, y_train), (x_test, y_test)``: float64 ``(n, 13)`` and ``(n,)``, shuffled with
    ``np.random.RandomState(seed)`` and cut at ``int(n * (1 - test_split))``.

    Raises:
        ValueError: unless ``0 <= test_split < 1``.
        Exception: "URL fetch failure on <url>..." when the file is missing and offline.
    """
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between 0 "
                         "and 1 (exclusive of 1).")
    path = get_file(path, origin=f"{ORIGIN_FOLDER}boston_housing.npz", file_hash=SHA256)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    return split_shuffled(x, y, test_split, seed)
