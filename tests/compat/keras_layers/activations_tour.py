# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_layers_vs_keras.py)
# Every activation keras.activations.get knows, on a few points, and the activation layers.
x = np.array([-3.0, -1.0, -0.25, 0.0, 0.5, 2.0], "float32")
names = ["celu", "elu", "exponential", "gelu", "hard_shrink", "hard_sigmoid", "hard_silu",
         "hard_swish", "hard_tanh", "leaky_relu", "linear", "log_sigmoid", "log_softmax",
         "mish", "relu", "relu6", "selu", "sigmoid", "silu", "soft_shrink", "softmax",
         "softplus", "softsign", "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus",
         "swish", "tanh", "tanh_shrink"]
for name in names:
    fn = keras.activations.get(name)
    print(f"{name:15s} {fn.__name__:15s}", np.round(np.asarray(fn(x)), 4).tolist())
print(np.round(np.asarray(keras.activations.glu(x)), 4).tolist())
print(np.round(np.asarray(keras.activations.threshold(x, 0.1, -9.0)), 4).tolist())
for layer in [keras.layers.LeakyReLU(), keras.layers.ELU(alpha=0.5),
              keras.layers.ReLU(max_value=1.0, negative_slope=0.1, threshold=0.5),
              keras.layers.PReLU(alpha_initializer="ones"), keras.layers.Softmax(),
              keras.layers.Activation("gelu")]:
    print(type(layer).__name__, np.round(np.asarray(layer(x[None])), 4).tolist())
