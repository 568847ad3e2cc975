# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_fit_function.py)
# .numpy() on a tensor inside call or train_step: TensorFlow's error in a compiled fit, the
# value with run_eagerly=True.
rng = np.random.default_rng(10)
x = rng.standard_normal((12, 2)).astype("float32")
y = rng.standard_normal((12, 1)).astype("float32")


class Peek(keras.layers.Layer):
    def call(self, inputs):
        self.seen = inputs.numpy().shape
        return inputs


class PeekModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.peek, self.dense = Peek(), keras.layers.Dense(1)

    def call(self, inputs):
        return self.dense(self.peek(inputs))


class PeekStep(keras.Sequential):
    def train_step(self, data):
        print("train_step sees", data[0].numpy().shape)
        return super().train_step(data)


for make in (PeekModel,
             lambda: PeekStep([keras.Input((2,)), keras.layers.Dense(1)])):
    for run_eagerly in (False, True):
        model = make()
        model.compile(keras.optimizers.SGD(0.1), "mse", run_eagerly=run_eagerly)
        try:
            model.fit(x, y, batch_size=8, epochs=1, verbose=0)
            print("run_eagerly", run_eagerly, "fit ran")
        except Exception as e:
            print("run_eagerly", run_eagerly, type(e).__name__,
                  "'SymbolicTensor' object has no attribute 'numpy'" in str(e))
