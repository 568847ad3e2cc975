"""The VGG builder VGG16 and VGG19 share (Simonyan and Zisserman, 2014)."""
from .. import backend
from .. import layers as L
from . import imagenet_utils as iu

BASE = "https://storage.googleapis.com/tensorflow/keras-applications/"


def vgg(convs_per_block, weights_name, hashes, include_top, weights, input_tensor,
        input_shape, pooling, classes, classifier_activation, name):
    """VGG with ``convs_per_block[i]`` 3x3 convolutions in block ``i + 1``."""
    iu.check_weights_arg(weights, include_top, classes)
    input_shape = iu.obtain_input_shape(input_shape, 224, 32, backend.image_data_format(),
                                        include_top, weights)
    img_input = iu.image_input(input_tensor, input_shape)
    x = img_input
    for block, (n, filters) in enumerate(zip(convs_per_block, (64, 128, 256, 512, 512)), 1):
        for i in range(1, n + 1):
            x = L.Conv2D(filters, (3, 3), activation="relu", padding="same",
                         name=f"block{block}_conv{i}")(x)
        x = L.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)
    if include_top:
        x = L.Flatten(name="flatten")(x)
        x = L.Dense(4096, activation="relu", name="fc1")(x)
        x = L.Dense(4096, activation="relu", name="fc2")(x)
        iu.validate_activation(classifier_activation, weights)
        x = L.Dense(classes, activation=classifier_activation, name="predictions")(x)
    x = iu.pool_or_top(x, include_top, pooling)

    def weights_file():
        fname = (f"{weights_name}_weights_tf_dim_ordering_tf_kernels"
                 f"{'' if include_top else '_notop'}.h5")
        return fname, f"{BASE}{weights_name}/{fname}", hashes[0 if include_top else 1]
    return iu.finish_model(x, img_input, input_tensor, name, weights, weights_file)
