"""``tf.keras.optimizers.legacy``: Keras 2's optimizers, which Keras 3 (TF 2.21's
``tf.keras``) no longer has. The names exist, as in TF 2.21, and making one raises TF's
ImportError, which says how to get them back (the ``tf_keras`` package)."""

__all__ = ["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"]

_MESSAGE = (
    "`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to "
    "continue using a `tf.keras.optimizers.legacy` optimizer, you can install the "
    "`tf_keras` package (Keras 2) and set the environment variable `TF_USE_LEGACY_KERAS=True` "
    "to configure TensorFlow to use `tf_keras` when accessing `tf.keras`.")


class LegacyOptimizerWarning:
    """Base of the legacy names: constructing one raises ImportError (Keras 3's text)."""

    def __init__(self, *args, **kwargs):
        raise ImportError(_MESSAGE)


# As in TF 2.21, every legacy name is that one class.
Adagrad = Adam = Ftrl = Optimizer = RMSprop = SGD = LegacyOptimizerWarning
