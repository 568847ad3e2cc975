"""``tf.train.CheckpointOptions``: accepted for TensorFlow's signatures."""

__all__ = ["CheckpointOptions"]


class CheckpointOptions:
    """Options for ``save``/``write``/``restore`` (``tf.train.CheckpointOptions``).

    tapeflow writes on the calling thread on one device, so the I/O-device, async and
    sharding options are recorded and otherwise have no effect; each of
    ``experimental_write_callbacks`` is called with the path after a successful write,
    as in TensorFlow.

    Args:
        experimental_io_device: ignored (one device).
        experimental_enable_async_checkpoint: accepted; saves are synchronous.
        experimental_write_callbacks: callables taking the written path (``save`` and
            ``write``).
        enable_async: accepted; saves are synchronous.
        experimental_skip_slot_variables: accepted (Keras 3 optimizers keep no slot
            references in the graph).
        experimental_sharding_callback: accepted; one shard is written.
    """

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False, experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = experimental_enable_async_checkpoint
        self.experimental_write_callbacks = list(experimental_write_callbacks or [])
        self.enable_async = enable_async
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback
