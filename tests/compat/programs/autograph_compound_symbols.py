"""AutoGraph reference, control flow, "Compound symbols": an attribute assigned in a tensor
``if`` is a variable of the conditional, as a name is."""
import tensorflow as tf


@tf.function
def compound(a):
    if a.b < 0:
        a.b = -a.b
    return a.b


class A:
    pass


a = A()
a.b = tf.constant(-3)
print(compound(a))
