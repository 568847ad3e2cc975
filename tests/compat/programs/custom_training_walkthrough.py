"""A small classifier trained by hand: model, loss, gradients, metrics, evaluation
(in the spirit of tutorials/customization/custom_training_walkthrough, on synthetic data)."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(7)
centers = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])
labels = np.repeat(np.arange(3), 40)
features = (centers[labels] + rng.normal(scale=0.35, size=(120, 4))).astype(np.float32)
order = rng.permutation(120)
features, labels = features[order], labels[order].astype(np.int64)
train_x, train_y = features[:96], labels[:96]
test_x, test_y = features[96:], labels[96:]

train_dataset = tf.data.Dataset.from_tensor_slices((train_x, train_y)).batch(32)
features_batch, labels_batch = next(iter(train_dataset))
print(features_batch.shape, labels_batch.dtype, labels_batch[:5])

model = tf.keras.Sequential([
    tf.keras.Input(shape=(4,)),
    tf.keras.layers.Dense(10, activation=tf.nn.relu),
    tf.keras.layers.Dense(10, activation=tf.nn.relu),
    tf.keras.layers.Dense(3),
])
init = np.random.default_rng(0)
model.set_weights([(init.normal(size=w.shape) * 0.3).astype(np.float32)
                   for w in model.get_weights()])
print([w.shape for w in model.get_weights()])

predictions = model(features_batch[:3])
print(tf.nn.softmax(predictions))
print("Prediction:", tf.math.argmax(predictions, axis=1))

loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def loss(model, x, y, training):
    y_ = model(x, training=training)
    return loss_object(y_true=y, y_pred=y_)


print("Loss test: {:.5f}".format(loss(model, features_batch, labels_batch, False)))


def grad(model, inputs, targets):
    with tf.GradientTape() as tape:
        loss_value = loss(model, inputs, targets, training=True)
    return loss_value, tape.gradient(loss_value, model.trainable_variables)


optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
loss_value, grads = grad(model, features_batch, labels_batch)
print("Step: {}, Initial Loss: {:.5f}".format(optimizer.iterations.numpy(), loss_value.numpy()))
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("Step: {},         Loss: {:.5f}".format(
    optimizer.iterations.numpy(), loss(model, features_batch, labels_batch, True).numpy()))

train_loss_results = []
train_accuracy_results = []
for epoch in range(61):
    epoch_loss_avg = tf.keras.metrics.Mean()
    epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    for x, y in train_dataset:
        loss_value, grads = grad(model, x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        epoch_loss_avg.update_state(loss_value)
        epoch_accuracy.update_state(y, model(x, training=True))
    train_loss_results.append(epoch_loss_avg.result())
    train_accuracy_results.append(epoch_accuracy.result())
    if epoch % 20 == 0:
        print("Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}".format(
            epoch, epoch_loss_avg.result(), epoch_accuracy.result()))

test_accuracy = tf.keras.metrics.Accuracy()
for x, y in tf.data.Dataset.from_tensor_slices((test_x, test_y)).batch(8):
    logits = model(x, training=False)
    prediction = tf.math.argmax(logits, axis=1, output_type=tf.int64)
    test_accuracy(prediction, y)
print("Test set accuracy: {:.3%}".format(test_accuracy.result()))
print(tf.stack([y, prediction], axis=1)[:4])

predict_dataset = tf.convert_to_tensor([[5.1, 3.3, 1.7, 0.5], [5.9, 3.0, 4.2, 1.5],
                                        [6.9, 3.1, 5.4, 2.1]])
for i, logits in enumerate(model(predict_dataset, training=False)):
    class_idx = tf.math.argmax(logits).numpy()
    p = tf.nn.softmax(logits)[class_idx]
    print("Example {} prediction: {} ({:4.1f}%)".format(i, class_idx, 100 * p))
