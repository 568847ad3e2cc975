"""TF's function guide's graph cells as real source (AutoGraph converts only functions whose
source it can read): ``tools/record_graph.py`` runs :func:`observe` under TensorFlow 2.21,
``tests/function/test_graph.py`` under tapeflow."""


def observe(tf):
    """What the guide prints: node counts of a loop over a Python list and over a
    dataset, the traced output of a ``TensorSpec(None)`` trace, and a tensor that a
    function both leaked and returned."""
    out = {}

    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)
        return loss

    def size(*args):
        return len(train.get_concrete_function(*args).graph.as_graph_def().node)

    out["list_3"] = size([(1, 1)] * 3)
    out["list_10"] = size([(1, 1)] * 10)
    ds = tf.data.Dataset.from_generator(lambda: [(1, 1)] * 3,
                                        output_signature=(tf.TensorSpec([], tf.int32),
                                                          tf.TensorSpec([], tf.int32)))
    gd = train.get_concrete_function(ds).graph.as_graph_def()
    out["dataset_nodes"] = [[n.name, n.op, list(n.input)] for n in gd.node]

    @tf.function
    def power(a, b):
        return a ** b

    square = power.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    out["unknown_rank_output"] = [str(square.structured_outputs),
                                  str(square.outputs[0])]

    leaked = []

    @tf.function
    def leaky(a):
        x = a + 1
        leaked.append(x)
        return x

    out["returned"] = float(leaky(tf.constant(1.0)).numpy())
    try:
        leaked[0].numpy()
        out["leaked_numpy"] = "no error"
    except AttributeError as e:
        out["leaked_numpy"] = str(e)

    class Model:
        bias = 0.0
        weight = 2.0

    def evaluate(model, x):
        return model.weight * x + model.bias

    cf = tf.function(evaluate).get_concrete_function(Model(), tf.constant(10.0))
    out["literal_then_tensor"] = float(cf(tf.constant(10.0)).numpy())
    return out
