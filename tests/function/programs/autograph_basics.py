"""AutoGraph basics in the spirit of the course's graph-mode labs (written for tapeflow)."""
import tapeflow as tf


@tf.function
def add(a, b):
    return a + b


print(add(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))


@tf.function
def clip_positive(x):
    if x > 0:
        x = x * 10
    else:
        x = -x
    return x


print(clip_positive(tf.constant(3)), clip_positive(tf.constant(-4)))


@tf.function
def label(x):
    if x > 0:
        return "up"
    elif x < 0:
        return "down"
    else:
        return "flat"


print(label(tf.constant(1.5)), label(tf.constant(-0.5)), label(tf.constant(0.0)))


@tf.function
def count_multiples(n):
    hits = 0
    for k in range(n):
        if k % 3 == 0 or k % 7 == 0:
            print("hit branch traced")
            hits += 1
        else:
            print("miss branch traced", k)
    return hits


print(count_multiples(tf.constant(22)), count_multiples(tf.constant(8)))


@tf.function
def shrink(x):
    while tf.reduce_max(x) > 0.5:
        tf.print("shrinking", x)
        x = x * 0.5
    return x


print(shrink(tf.constant([3.0, 1.0])))


@tf.function
def evens(items):
    total = tf.constant(0)
    for v in items:
        if v % 2 > 0:
            continue
        total += v
    return total


print(evens(tf.constant([3, 4, 5, 6, 11, 20])))


@tf.function
def first_over(xs, limit):
    found = tf.constant(-1.0)
    for x in xs:
        if x > limit:
            found = x
            break
    return found


print(first_over(tf.constant([1.0, 4.0, 9.0]), tf.constant(3.0)))
print(first_over(tf.constant([1.0, 4.0, 9.0]), tf.constant(30.0)))


@tf.function
def traced_vs_executed(x):
    print("Traced with", x)
    tf.print("Executed with", x)


for i in range(3):
    traced_vs_executed(tf.constant(i))
traced_vs_executed(2)
traced_vs_executed(2)
print(traced_vs_executed.experimental_get_tracing_count())
