"""Variables: creation, assignment, names, trainability (in the spirit of guide/variable)."""
import tensorflow as tf

my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
my_variable = tf.Variable(my_tensor)
bool_variable = tf.Variable([False, False, False, True])
complex_variable = tf.Variable([5 + 4j, 6 + 1j])
print("Shape:", my_variable.shape)
print("DType:", my_variable.dtype)
print("As NumPy:", my_variable.numpy())
print(bool_variable.dtype, complex_variable.dtype)

print("A variable:", my_variable)
print("\nViewed as a tensor:", tf.convert_to_tensor(my_variable))
print("\nIndex of highest value:", tf.math.argmax(my_variable))
print("\nCopying and reshaping: ", tf.reshape(my_variable, [1, 4]))

a = tf.Variable([2.0, 3.0])
a.assign([1, 2])
print(a.numpy())
try:
    a.assign([1.0, 2.0, 3.0])
except Exception as e:
    print(f"{type(e).__name__}: {e}")

b = tf.Variable(a)
a.assign([5, 6])
print(a.numpy(), b.numpy())
print(a.assign_add([2, 3]).numpy())
print(a.assign_sub([7, 9]).numpy())

v1 = tf.Variable(my_tensor, name="Mark")
v2 = tf.Variable(my_tensor + 1, name="Mark")
print(v1.name, v2.name)
print(v1 == v2)
step_counter = tf.Variable(1, trainable=False)
print(step_counter.trainable, v1.trainable, step_counter.dtype)

w = tf.Variable(tf.ones((3, 2)), name="w")
x = tf.constant([[1.0, 2.0, 3.0]])
y = x @ w + 1.0
print(type(y).__name__ == type(x).__name__, y)
print(w * 2.0)
print((w + w).shape, tf.reduce_sum(w).numpy())

c = tf.Variable(0.0)
for k in range(5):
    c.assign_add(float(k))
print(c.numpy(), float(c), int(step_counter))
print(tf.Variable(2.5, dtype=tf.float64).dtype)
try:
    tf.Variable(1).assign(1.5)
except TypeError as e:
    print("TypeError:", e)
