"""``tf.saved_model.SaveOptions`` and ``tf.saved_model.LoadOptions``: plain option holders."""

__all__ = ["SaveOptions", "LoadOptions"]


class SaveOptions:
    """Options for ``tf.saved_model.save`` (TF's ``tf.saved_model.SaveOptions``).

    Args:
        namespace_whitelist: op namespaces allowed in the saved graph (list of str).
        save_debug_info: whether to write ``debug/saved_model_debug_info.pb``.
        function_aliases: ``{alias: tf.function}`` recorded in the MetaInfoDef.
        experimental_custom_gradients: save ``tf.custom_gradient`` functions (default True).
        experimental_skip_saver, experimental_image_format, experimental_io_device,
        experimental_variable_policy, experimental_debug_stripper,
        experimental_sharding_callback, extra_tags: TF's options of the same names.
    """

    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases",
                 "experimental_debug_stripper", "experimental_io_device",
                 "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver",
                 "experimental_sharding_callback", "extra_tags")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None,
                 experimental_variable_policy=None, experimental_custom_gradients=True,
                 experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None):
        self.namespace_whitelist = list(namespace_whitelist or [])
        self.save_debug_info = save_debug_info
        self.function_aliases = function_aliases if function_aliases else {}
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


class LoadOptions:
    """Options for ``tf.saved_model.load`` (TF's ``tf.saved_model.LoadOptions``).

    Args:
        allow_partial_checkpoint: load even if some variables have no saved value.
        experimental_io_device: accepted for TF's signature; tapeflow reads on the host.
        experimental_skip_checkpoint: leave variables at their initial values (zeros).
        experimental_variable_policy: accepted for TF's signature.
        experimental_load_function_aliases: expose ``function_aliases`` as
            ``loaded.function_aliases``.
    """

    __slots__ = ("allow_partial_checkpoint", "experimental_io_device",
                 "experimental_skip_checkpoint", "experimental_variable_policy",
                 "experimental_load_function_aliases")

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_load_function_aliases = experimental_load_function_aliases
