# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_fit_function.py)
# compile(run_eagerly=True), the run_eagerly property, make_train_function(force=True) and
# tf.config.run_functions_eagerly: which steps run as Python on every batch.
rng = np.random.default_rng(9)
x = rng.standard_normal((20, 2)).astype("float32")
y = rng.standard_normal((20, 1)).astype("float32")


verbose = []   # prints from the first fit on (not the model's build)


class Show(keras.layers.Layer):
    def call(self, inputs):
        if verbose:
            print("Show.call", tuple(inputs.shape))
        return inputs


model = keras.Sequential([keras.Input((2,)), Show(), keras.layers.Dense(1)])
model.set_weights([np.array([[0.5], [-0.25]], "float32"), np.array([0.1], "float32")])
model.compile(keras.optimizers.SGD(0.1), "mse", run_eagerly=True)
verbose.append(True)
print("run_eagerly", model.run_eagerly)
print(model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0).history)
model.run_eagerly = False
print("run_eagerly", model.run_eagerly, "(the step function made by fit is kept)")
print(model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0).history)
model.make_train_function(force=True)
print("forced")
print(model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0).history)
tf.config.run_functions_eagerly(True)
print("run_functions_eagerly", tf.config.functions_run_eagerly())
print(model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0).history)
tf.config.run_functions_eagerly(False)
print(model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0).history)
print(model.get_compile_config()["run_eagerly"])
model.compile(keras.optimizers.SGD(0.1), "mse")
print("recompiled", model.run_eagerly, model.get_compile_config()["run_eagerly"])
