"""``keras.utils.FeatureSpace``: one-stop preprocessing of structured (tabular) data, from a
dict of named columns to one encoded vector (or a dict of encoded features)."""
from ..._core.backend import np

__all__ = ["Cross", "Feature", "FeatureSpace"]


def _layers():
    from .. import layers
    return layers


def _tf():
    import tapeflow
    return tapeflow


class Cross:
    """A crossing of features, hashed into ``crossing_dim`` bins (``FeatureSpace.cross``)."""

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in {"int", "one_hot"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{{'int', 'one_hot'}}. Received: output_mode={output_mode}")
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        """The crossed names joined by ``_X_``."""
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """A feature: its input dtype, the preprocessing layer and how its output is encoded
    ('int', 'one_hot' or 'float') (``FeatureSpace.feature``)."""

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in {"int", "one_hot", "float"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{{'int', 'one_hot', 'float'}}. Received: output_mode={output_mode}")
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            from ..saving import deserialize_keras_object
            preprocessor = deserialize_keras_object(preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        from ..saving import serialize_keras_object
        return {"dtype": self.dtype, "preprocessor": serialize_keras_object(self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _auto(name):
    from .. import _naming
    return _naming.uniquify(name)


def _identity_layer(name):
    layers = _layers()

    class _Identity(layers.Layer):
        def call(self, x):
            return x
    return _Identity(name=name)


def _concat_layer():
    """Concatenation along the last axis that, unlike ``Concatenate``, takes one input too."""
    layers = _layers()

    class _Concat(layers.Layer):
        def call(self, xs):
            return _tf().concat(list(xs), axis=-1)

        def compute_output_shape(self, shapes):
            shapes = [tuple(s) for s in shapes]
            last = [s[-1] for s in shapes]
            return shapes[0][:-1] + (None if None in last else sum(last),)
    return _Concat()


class FeatureSpace:
    """Preprocess a dict of features into one encoded tensor (``keras.utils.FeatureSpace``).

    Args:
        features: ``{name: feature}``; a feature is a :class:`Feature` (from the class
            methods below) or one of the strings 'float', 'float_rescaled',
            'float_normalized', 'float_discretized', 'integer_categorical',
            'string_categorical', 'integer_hashed', 'string_hashed'.
        output_mode: 'concat' (one float32 tensor ``(batch, total_width)``, features in
            sorted name order then crosses in sorted name order) or 'dict'.
        crosses: feature-name tuples (or :meth:`cross` objects) to cross with
            ``HashedCrossing``.
        crossing_dim, hashing_dim, num_discretization_bins: the bins of the crosses, of the
            hashed features and of 'float_discretized' given by name.

    ``adapt(dataset)`` learns the vocabularies, means and bin edges from a
    ``tf.data.Dataset`` of dicts (or a dict of arrays); calling the space on a dict of
    batches (or of single values) encodes them; ``get_inputs()`` and
    ``get_encoded_features()`` give the symbolic inputs and outputs to build a Functional
    model on.

    Raises:
        ValueError: for empty features, unknown feature strings, crosses of unknown
            features, an unknown output mode, or use before ``adapt``.
    """

    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        """A float32 feature passed through unchanged."""
        name = name or _auto("float")
        return Feature("float32", _identity_layer(f"{name}_preprocessor"), "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        """A float32 feature times ``scale`` plus ``offset`` (``Rescaling``)."""
        name = name or _auto("float_rescaled")
        return Feature("float32", _layers().Rescaling(scale=scale, offset=offset,
                                                      name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_normalized(cls, name=None):
        """A float32 feature standardized with the mean and variance ``adapt`` finds."""
        name = name or _auto("float_normalized")
        return Feature("float32", _layers().Normalization(axis=-1, name=f"{name}_preprocessor"),
                       "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot",
                          name=None):
        """A float32 feature bucketized into ``num_bins`` quantile bins (``Discretization``)."""
        name = name or _auto("float_discretized")
        return Feature("float32", _layers().Discretization(
            num_bins=num_bins, bin_boundaries=bin_boundaries, name=f"{name}_preprocessor"),
            output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                            name=None):
        """An int32 categorical feature indexed by ``IntegerLookup``."""
        name = name or _auto("integer_categorical")
        return Feature("int32", _layers().IntegerLookup(
            name=f"{name}_preprocessor", max_tokens=max_tokens,
            num_oov_indices=num_oov_indices), output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                           name=None):
        """A string categorical feature indexed by ``StringLookup``."""
        name = name or _auto("string_categorical")
        return Feature("string", _layers().StringLookup(
            name=f"{name}_preprocessor", max_tokens=max_tokens,
            num_oov_indices=num_oov_indices), output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        """A string feature hashed into ``num_bins`` bins."""
        name = name or _auto("string_hashed")
        return Feature("string", _layers().Hashing(name=f"{name}_preprocessor",
                                                   num_bins=num_bins), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        """An int32 feature hashed into ``num_bins`` bins."""
        name = name or _auto("integer_hashed")
        return Feature("int32", _layers().Hashing(name=f"{name}_preprocessor",
                                                  num_bins=num_bins), output_mode)

    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32,
                 hashing_dim=32, num_discretization_bins=32, name=None):
        if not features:
            raise ValueError("The `features` argument cannot be None or empty.")
        self.name = name or _auto("feature_space")
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {k: self._standardize_feature(k, v) for k, v in features.items()}
        self.crosses = []
        for cross in crosses or ():
            if isinstance(cross, dict):
                from ..saving import deserialize_keras_object
                cross = deserialize_keras_object(cross)
            if not isinstance(cross, Cross):
                if not crossing_dim:
                    raise ValueError("When specifying `crosses`, the argument `crossing_dim` "
                                     "(dimensionality of the crossing space) should be "
                                     "specified as well.")
                if any(key not in features for key in cross):
                    raise ValueError("All features referenced in the `crosses` argument should "
                                     "be present in the `features` dict. Received unknown "
                                     f"features: {cross}")
                cross = Cross(cross, crossing_dim=crossing_dim)
            self.crosses.append(cross)
        self.crosses_by_name = {c.name: c for c in self.crosses}
        if output_mode not in {"dict", "concat"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{{'dict', 'concat'}}. Received: output_mode={output_mode}")
        self.output_mode = output_mode
        layers = _layers()
        self.inputs = {k: layers.Input(shape=(1,), dtype=f.dtype, name=k)
                       for k, f in self.features.items()}
        self.preprocessors = {k: f.preprocessor for k, f in self.features.items()}
        self.crossers = {c.name: layers.HashedCrossing(c.crossing_dim, name=c.name)
                         for c in self.crosses}
        self.encoded_features = None
        self.one_hot_encoders = {}
        self._is_adapted = False
        self._concat = None
        self._names = None
        self._sublayers_built = False
        self.built = False

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            from ..saving import deserialize_keras_object
            return deserialize_keras_object(feature)
        makers = {
            "float": lambda: self.float(name=name),
            "float_normalized": lambda: self.float_normalized(name=name),
            "float_rescaled": lambda: self.float_rescaled(name=name),
            "float_discretized": lambda: self.float_discretized(
                name=name, num_bins=self.num_discretization_bins),
            "integer_categorical": lambda: self.integer_categorical(name=name),
            "string_categorical": lambda: self.string_categorical(name=name),
            "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=name),
            "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=name),
        }
        if feature not in makers:
            raise ValueError(f"Invalid feature type: {feature}")
        return makers[feature]()

    def _adaptable(self):
        layers = _layers()
        names = []
        for name in self.features:
            p = self.preprocessors[name]
            if isinstance(p, layers.Normalization) and getattr(p, "input_mean", None) is not None:
                continue
            if isinstance(p, layers.TextVectorization) and getattr(
                    p, "_has_input_vocabulary", False):
                continue
            if hasattr(p, "adapt"):
                names.append(name)
        return names

    def adapt(self, dataset):
        """Fit every adaptable preprocessor on its column of ``dataset``.

        Args:
            dataset: a ``tf.data.Dataset`` of dicts (batched or not) or a dict of arrays.

        Raises:
            ValueError: for anything else.
        """
        tf = _tf()
        if not isinstance(dataset, tf.data.Dataset):
            if not isinstance(dataset, dict):
                raise ValueError("`adapt()` can only be called on a tf.data.Dataset or a dict "
                                 f"of arrays/lists. Received instead: {dataset} (of type "
                                 f"{type(dataset)})")
            dataset = tf.data.Dataset.from_tensor_slices(dataset)
        for name in self._adaptable():
            column = dataset.map(lambda x, name=name: x[name])
            first = next(iter(column))
            if len(first.shape) == 0:
                column = column.batch(32)
            if len(first.shape) in (0, 1):
                column = column.map(lambda x: tf.expand_dims(x, -1))
            self.preprocessors[name].adapt(column)
        self._is_adapted = True
        self.get_encoded_features()
        self.built = True
        self._sublayers_built = True

    def get_inputs(self):
        """``{name: keras.Input((1,), dtype)}`` of the features."""
        self._check_if_built()
        return self.inputs

    def get_encoded_features(self):
        """The symbolic encoded output on :meth:`get_inputs` (a tensor or a dict).

        Raises:
            ValueError: before ``adapt`` when a preprocessor needs it.
        """
        self._check_if_adapted()
        if self.encoded_features is None:
            pre = self._preprocess(self.inputs)
            self.encoded_features = self._merge(pre, self._cross(pre))
        return self.encoded_features

    def _preprocess(self, features):
        return {name: self.preprocessors[name](features[name]) for name in features}

    def _cross(self, features):
        return {c.name: self.crossers[c.name]([features[n] for n in c.feature_names])
                for c in self.crosses}

    def _merge(self, pre, crossed):
        layers = _layers()
        if self._names is None:
            self._names = sorted(pre), sorted(crossed)
        pre_names, cross_names = self._names
        items = [(n, pre[n]) for n in pre_names] + [(n, crossed[n]) for n in cross_names]
        if self._sublayers_built:
            out = {}
            for name, x in items:
                encoder = self.one_hot_encoders.get(name)
                out[name] = encoder(x) if encoder else x
            return out if self.output_mode == "dict" else self._concat(list(out.values()))
        specs = [self.features[n] for n in pre_names] + [self.crosses_by_name[n]
                                                         for n in cross_names]
        out = {}
        for (name, x), spec in zip(items, specs):
            dtype = _dtype_name(x)
            if spec.output_mode == "one_hot":
                p = self.preprocessors.get(name) or self.crossers.get(name)
                if not dtype.startswith("int"):
                    raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. Thus its "
                                     "preprocessor should return an integer dtype. Instead it "
                                     f"returns a {dtype} dtype.")
                if isinstance(p, (layers.IntegerLookup, layers.StringLookup)):
                    cardinality = p.vocabulary_size()
                elif isinstance(p, layers.CategoryEncoding):
                    cardinality = p.num_tokens
                elif isinstance(p, (layers.Discretization, layers.HashedCrossing,
                                    layers.Hashing)):
                    cardinality = p.num_bins
                else:
                    raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. However "
                                     "it isn't a standard feature and the dimensionality of "
                                     "its output space is not known, thus it cannot be "
                                     "one-hot encoded. Try using `output_mode='int'`.")
                encoder = layers.CategoryEncoding(num_tokens=cardinality,
                                                  output_mode="multi_hot")
                self.one_hot_encoders[name] = encoder
                x = encoder(x)
            if self.output_mode == "concat":
                dtype = _dtype_name(x)
                if dtype.startswith("int") or dtype == "string":
                    raise ValueError(f"Cannot concatenate features because feature '{name}' has "
                                     f"not been encoded (it has dtype {dtype}). Consider using "
                                     "`output_mode='dict'`.")
            out[name] = x
        if self.output_mode == "dict":
            return out
        self._concat = _concat_layer()
        return self._concat(list(out.values()))

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace before "
                                 "you can start using it.")
            self._is_adapted = True

    def _check_if_built(self):
        if not self._sublayers_built:
            self._check_if_adapted()
            self.get_encoded_features()
            self._sublayers_built = True

    def __call__(self, data):
        """Encode a dict of feature batches ``(batch,)``/``(batch, 1)`` or single values.

        Returns:
            float32 ``(batch, width)`` ('concat'; ``(width,)`` for single values) or a dict.

        Raises:
            ValueError: for a non-dict input, or before ``adapt``.
        """
        tf = _tf()
        self._check_if_built()
        if not isinstance(data, dict):
            raise ValueError(f"A FeatureSpace can only be called with a dict. Received: "
                             f"data={data} (of type {type(data)}")
        data = {k: _as_tensor(v) for k, v in data.items()}
        single = False
        for name, x in data.items():
            if len(x.shape) == 0:
                data[name] = tf.reshape(x, (1, 1))
                single = True
            elif len(x.shape) == 1:
                data[name] = tf.expand_dims(x, -1)
        pre = {k: _as_tensor(v) for k, v in self._preprocess(data).items()}
        crossed = {k: _as_tensor(v) for k, v in self._cross(pre).items()}
        merged = self._merge(pre, crossed)
        if single:
            if self.output_mode == "concat":
                if merged.shape[0] != 1:
                    raise ValueError("Expected rebatched data to have batch size 1. Received: "
                                     f"shape={merged.shape}")
                merged = tf.squeeze(merged, axis=0)
            else:
                merged = {k: tf.squeeze(v, axis=0) if len(v.shape) == 2 and v.shape[0] == 1
                          else v for k, v in merged.items()}
        return merged

    def get_config(self):
        from ..saving import serialize_keras_object
        return {"features": {k: serialize_keras_object(v) for k, v in self.features.items()},
                "output_mode": self.output_mode,
                "crosses": [serialize_keras_object(c) for c in self.crosses],
                "crossing_dim": self.crossing_dim, "hashing_dim": self.hashing_dim,
                "num_discretization_bins": self.num_discretization_bins}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _dtype_name(x):
    dtype = x.dtype
    return getattr(dtype, "name", str(dtype))


def _as_tensor(x):
    tf = _tf()
    if isinstance(x, (tf.Tensor, tf.SparseTensor, tf.RaggedTensor)):
        return x
    if not isinstance(x, (list, tuple, int, float)):
        x = np.asarray(x)
    return tf.convert_to_tensor(x)
