"""TensorFlow's guide "Basic training loops": a tf.Module linear model trained by hand,
then the same model as a Keras model with compile/fit."""
import tensorflow as tf

TRUE_W = 3.0
TRUE_B = 2.0
NUM_EXAMPLES = 201

tf.random.set_seed(0)
x = tf.linspace(-2, 2, NUM_EXAMPLES)
x = tf.cast(x, tf.float32)


def f(x):
    return x * TRUE_W + TRUE_B


noise = tf.cos(tf.range(NUM_EXAMPLES, dtype=tf.float32) * 7.0) * 0.5
y = f(x) + noise


class MyModel(tf.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b


model = MyModel()
print("Variables:", model.variables)
assert model(3.0).numpy() == 15.0


def loss(target_y, predicted_y):
    return tf.reduce_mean(tf.square(target_y - predicted_y))


print("Current loss: %1.6f" % loss(y, model(x)).numpy())


def train(model, x, y, learning_rate):
    with tf.GradientTape() as t:
        current_loss = loss(y, model(x))
    dw, db = t.gradient(current_loss, [model.w, model.b])
    model.w.assign_sub(learning_rate * dw)
    model.b.assign_sub(learning_rate * db)


weights = []
biases = []
epochs = range(10)


def report(model, loss):
    return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={loss:2.5f}"


def training_loop(model, x, y):
    for epoch in epochs:
        train(model, x, y, learning_rate=0.1)
        weights.append(model.w.numpy())
        biases.append(model.b.numpy())
        current_loss = loss(y, model(x))
        print(f"Epoch {epoch:2d}:")
        print("    ", report(model, current_loss))


current_loss = loss(y, model(x))
print("Starting:")
print("    ", report(model, current_loss))
training_loop(model, x, y)
print("Current loss: %1.6f" % loss(model(x), y).numpy())


class MyModelKeras(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def call(self, x):
        return self.w * x + self.b


keras_model = MyModelKeras()
training_loop(keras_model, x, y)

keras_model = MyModelKeras()
# tf.Variable attributes of a Keras 3 model are not tracked: fit warns and trains nothing
keras_model.compile(run_eagerly=False, optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                    loss="mse")
print(x.shape[0])
history = keras_model.fit(x, y, epochs=10, batch_size=1000, verbose=0)
print([round(v, 4) for v in history.history["loss"]])
print(round(float(keras_model.w.numpy()), 4), round(float(keras_model.b.numpy()), 4))
