# ruff: noqa: F821 - run with tf, keras and np given (tests/test_keras_train_protocol.py)
# compile extended in a subclass (two optimizers), own loss trackers, SeedGenerator draws.
rng = np.random.default_rng(5)
real = rng.random((32, 6)).astype("float32")


class GAN(keras.Model):
    def __init__(self, latent_dim):
        super().__init__()
        self.latent_dim = latent_dim
        self.generator = keras.Sequential([keras.Input((latent_dim,)),
                                           keras.layers.Dense(6, activation="sigmoid")])
        self.discriminator = keras.Sequential([keras.Input((6,)), keras.layers.Dense(1)])
        self.d_loss_tracker = keras.metrics.Mean(name="d_loss")
        self.g_loss_tracker = keras.metrics.Mean(name="g_loss")
        self.seed_generator = keras.random.SeedGenerator(1337)

    @property
    def metrics(self):
        return [self.d_loss_tracker, self.g_loss_tracker]

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn

    def train_step(self, real_images):
        batch_size = tf.shape(real_images)[0]
        noise = keras.random.normal((batch_size, self.latent_dim), seed=self.seed_generator)
        fake = self.generator(noise)
        images = tf.concat([fake, real_images], axis=0)
        labels = tf.concat([tf.ones((batch_size, 1)), tf.zeros((batch_size, 1))], axis=0)
        with tf.GradientTape() as tape:
            d_loss = self.loss_fn(labels, self.discriminator(images))
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        noise = keras.random.normal((batch_size, self.latent_dim), seed=self.seed_generator)
        with tf.GradientTape() as tape:
            g_loss = self.loss_fn(tf.zeros((batch_size, 1)),
                                  self.discriminator(self.generator(noise)))
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        self.d_loss_tracker.update_state(d_loss)
        self.g_loss_tracker.update_state(g_loss)
        return {"d_loss": self.d_loss_tracker.result(), "g_loss": self.g_loss_tracker.result()}


gan = GAN(latent_dim=3)
gan.compile(d_optimizer=keras.optimizers.Adam(0.001), g_optimizer=keras.optimizers.Adam(0.001),
            loss_fn=keras.losses.BinaryCrossentropy(from_logits=True))
history = gan.fit(real, batch_size=8, epochs=2, verbose=2)
print(sorted(history.history), len(history.history["d_loss"]))
print([m.name for m in gan.metrics], int(gan.d_optimizer.iterations.numpy()))
print(gan.seed_generator.state.numpy().tolist())
