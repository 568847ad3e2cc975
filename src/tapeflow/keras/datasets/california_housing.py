"""California housing prices (Pace & Barry 1997): 20,640 block groups of 8 features and the
median house value in $ (``tf.keras.datasets.california_housing``)."""
from ..._core.backend import np
from ..utils.file_utils import get_file
from ._files import ORIGIN_FOLDER, split_shuffled

__all__ = ["load_data"]

SHA256 = "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f"


def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    """``(x_train, y_train), (x_test, y_test)``: float32 ``(n, 8)`` and ``(n,)``, shuffled with
    ``np.random.RandomState(seed)`` and cut at ``int(n * (1 - test_split))``.

    Args:
        version: 'large' (all rows) or 'small' (the first 600, as Keras).

    Raises:
        ValueError: unless ``0 <= test_split < 1``, or for another ``version``.
        Exception: "URL fetch failure on <url>..." when the file is missing and offline.
    """
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between 0 "
                         "and 1 (exclusive of 1).")
    path = get_file(path, origin=f"{ORIGIN_FOLDER}california_housing.npz", file_hash=SHA256)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:600], y[:600]
    elif version != "large":
        raise ValueError("Argument `version` must be one of 'small', 'large'. Received: "
                         f"version={version}")
    return split_shuffled(x, y, test_split, seed)
