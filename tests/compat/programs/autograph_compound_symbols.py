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


# more: both branches, a nested attribute, a Python condition, a value the branch reads
class B:
    pass


@tf.function
def both(o, x):
    if x > 0:
        o.c.d = o.c.d * 2.0
        o.e = x + 1.0
    else:
        o.e = x - 1.0
    return o.c.d, o.e


o = B()
o.c = B()
o.c.d = tf.constant(1.5)
o.e = tf.constant(0.0)
print(both(o, tf.constant(3.0)))
print(both(o, tf.constant(-3.0)))


@tf.function
def python_condition(o, flag):
    if flag:
        o.e = o.e + 10.0
    return o.e


p = B()
p.e = tf.constant(1.0)
print(python_condition(p, True))
q = B()
q.e = tf.constant(2.0)
print(python_condition(q, False))
