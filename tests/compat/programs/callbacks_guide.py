"""Keras's guide "Writing your own callbacks": every hook's order in fit, evaluate and
predict, logs contents, early stopping at the minimum loss, a learning-rate schedule. (Zero
initial weights, RMSprop at 1e-3 and no shuffling, so that the numbers are TensorFlow's: the
guide's random initialization, shuffled batches and lr 0.1 make them differ run to run.)"""
import numpy as np
from tensorflow import keras


def get_model():
    model = keras.Sequential()
    model.add(keras.layers.Dense(1, kernel_initializer="zeros"))
    model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=0.001),
                  loss="mean_squared_error", metrics=["mean_absolute_error"])
    return model


rng = np.random.default_rng(0)
x_train = rng.random((1000, 784)).astype("float32")
y_train = (x_train @ rng.random((784,)).astype("float32") / 100).astype("float32")
x_test, y_test = x_train[:200], y_train[:200]


class CustomCallback(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        print("Starting training; got log keys: {}".format(list(logs.keys())))

    def on_train_end(self, logs=None):
        print("Stop training; got log keys: {}".format(list(logs.keys())))

    def on_epoch_begin(self, epoch, logs=None):
        print("Start epoch {} of training; got log keys: {}".format(epoch, list(logs.keys())))

    def on_epoch_end(self, epoch, logs=None):
        print("End epoch {} of training; got log keys: {}".format(epoch, list(logs.keys())))

    def on_test_begin(self, logs=None):
        print("Start testing; got log keys: {}".format(list(logs.keys())))

    def on_test_end(self, logs=None):
        print("Stop testing; got log keys: {}".format(list(logs.keys())))

    def on_predict_begin(self, logs=None):
        print("Start predicting; got log keys: {}".format(list(logs.keys())))

    def on_predict_end(self, logs=None):
        print("Stop predicting; got log keys: {}".format(list(logs.keys())))

    def on_train_batch_begin(self, batch, logs=None):
        print("...Training: start of batch {}; got log keys: {}".format(batch, list(logs.keys())))

    def on_train_batch_end(self, batch, logs=None):
        print("...Training: end of batch {}; got log keys: {}".format(batch, list(logs.keys())))

    def on_test_batch_begin(self, batch, logs=None):
        print("...Evaluating: start of batch {}; got log keys: {}".format(batch, list(logs.keys())))

    def on_test_batch_end(self, batch, logs=None):
        print("...Evaluating: end of batch {}; got log keys: {}".format(batch, list(logs.keys())))

    def on_predict_batch_begin(self, batch, logs=None):
        print("...Predicting: start of batch {}; got log keys: {}".format(batch, list(logs.keys())))

    def on_predict_batch_end(self, batch, logs=None):
        print("...Predicting: end of batch {}; got log keys: {}".format(batch, list(logs.keys())))


model = get_model()
model.fit(x_train[:256], y_train[:256], batch_size=128, epochs=1, verbose=0, shuffle=False,
          validation_split=0.5, callbacks=[CustomCallback()])
res = model.evaluate(x_test[:256], y_test[:256], batch_size=128, verbose=0,
                     callbacks=[CustomCallback()])
res = model.predict(x_test[:256], batch_size=128, callbacks=[CustomCallback()], verbose=0)


class LossAndErrorPrintingCallback(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        print("Up to batch {}, the average loss is {:7.2f}.".format(batch, logs["loss"]))

    def on_test_batch_end(self, batch, logs=None):
        print("Up to batch {}, the average loss is {:7.2f}.".format(batch, logs["loss"]))

    def on_epoch_end(self, epoch, logs=None):
        print("The average loss for epoch {} is {:7.2f} and mean absolute error is {:7.2f}."
              .format(epoch, logs["loss"], logs["mean_absolute_error"]))


model = get_model()
model.fit(x_train, y_train, batch_size=128, epochs=2, verbose=0, shuffle=False,
          callbacks=[LossAndErrorPrintingCallback()])
res = model.evaluate(x_test, y_test, batch_size=128, verbose=0,
                     callbacks=[LossAndErrorPrintingCallback()])


class EarlyStoppingAtMinLoss(keras.callbacks.Callback):
    def __init__(self, patience=0):
        super().__init__()
        self.patience = patience
        self.best_weights = None

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf

    def on_epoch_end(self, epoch, logs=None):
        current = logs.get("loss")
        if np.less(current, self.best):
            self.best = current
            self.wait = 0
            self.best_weights = self.model.get_weights()
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = epoch
                self.model.stop_training = True
                print("Restoring model weights from the end of the best epoch.")
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")


model = get_model()
model.fit(x_train, y_train, batch_size=64, epochs=30, verbose=0, shuffle=False,
          callbacks=[LossAndErrorPrintingCallback(), EarlyStoppingAtMinLoss()])


class CustomLearningRateScheduler(keras.callbacks.Callback):
    def __init__(self, schedule):
        super().__init__()
        self.schedule = schedule

    def on_epoch_begin(self, epoch, logs=None):
        if not hasattr(self.model.optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        lr = float(np.array(self.model.optimizer.learning_rate))
        scheduled_lr = self.schedule(epoch, lr)
        self.model.optimizer.learning_rate = scheduled_lr
        print(f"\nEpoch {epoch}: Learning rate is {float(np.array(scheduled_lr))}.")


LR_SCHEDULE = [(3, 0.05), (6, 0.01), (9, 0.005), (12, 0.001)]


def lr_schedule(epoch, lr):
    if epoch < LR_SCHEDULE[0][0] or epoch > LR_SCHEDULE[-1][0]:
        return lr
    for i in range(len(LR_SCHEDULE)):
        if epoch == LR_SCHEDULE[i][0]:
            return LR_SCHEDULE[i][1]
    return lr


model = get_model()
model.fit(x_train, y_train, batch_size=64, epochs=15, verbose=0, shuffle=False,
          callbacks=[LossAndErrorPrintingCallback(), CustomLearningRateScheduler(lr_schedule)])
