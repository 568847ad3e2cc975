"""Variables inside tf.function, in the spirit of the course's second graph lab."""
import tapeflow as tf

a = tf.Variable(1.0)
b = tf.Variable(2.0)


@tf.function
def update(x, y):
    a.assign(y * b)
    b.assign_add(x * a)
    return a + b


print(update(tf.constant(1.0), tf.constant(2.0)))
print(a.numpy(), b.numpy())


@tf.function
def make_variable(x):
    v = tf.Variable(1.0)
    return v + x


try:
    make_variable(tf.constant(1.0))
except ValueError as err:
    print("ValueError:", str(err).strip().splitlines()[-1])


class Counter(tf.Module if hasattr(tf, "Module") else object):
    def __init__(self):
        self.count = None

    @tf.function
    def __call__(self, step):
        if self.count is None:
            self.count = tf.Variable(0)
        self.count.assign_add(step)
        return self.count.read_value()


c = Counter()
print(c(tf.constant(2)), c(tf.constant(3)), c(tf.constant(4)))
print(c.__call__.experimental_get_tracing_count())

g = tf.random.Generator.from_seed(1) if False else None
noise = tf.function(lambda: tf.random.uniform([2]))
first, second = noise(), noise()
print(bool(tf.reduce_any(first != second)))
