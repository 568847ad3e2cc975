"""tf.data.TextLineDataset: lines without their endings (a trailing \\r dropped, a last
line without a newline kept), several files in order or interleaved, GZIP and ZLIB files,
file names as a tensor or a dataset, and TF's errors."""
import gzip
import os
import tempfile
import zlib

import tensorflow as tf

d = tempfile.mkdtemp()
p1 = os.path.join(d, "a.txt")
p2 = os.path.join(d, "b.txt.gz")
p3 = os.path.join(d, "c.z")
open(p1, "wb").write(b"l1\r\nl2\n\nl4")
with gzip.open(p2, "wb") as f:
    f.write(b"g1\ng2\n")
open(p3, "wb").write(zlib.compress(b"z1\nz2"))
ds = tf.data.TextLineDataset(p1)
print(ds, ds.element_spec, int(ds.cardinality()))
print(list(ds.as_numpy_iterator()))
print(list(tf.data.TextLineDataset([p1, p1]).as_numpy_iterator()))
print(list(tf.data.TextLineDataset(p2, compression_type="GZIP").as_numpy_iterator()))
print(list(tf.data.TextLineDataset(p3, compression_type="ZLIB").as_numpy_iterator()))
print(list(tf.data.TextLineDataset(tf.constant([p1])).as_numpy_iterator()))
names = tf.data.Dataset.from_tensor_slices([p1, p1])
print(list(tf.data.TextLineDataset(names, num_parallel_reads=2).as_numpy_iterator()))
print(list(tf.data.TextLineDataset(p1).skip(1).map(tf.strings.upper).as_numpy_iterator()))
try:
    list(tf.data.TextLineDataset(os.path.join(d, "missing.txt")))
except Exception as e:
    print(type(e).__name__, str(e).replace(d, "D"))
try:
    print(list(tf.data.TextLineDataset(p1, compression_type="BZ2")))
except Exception as e:
    print(type(e).__name__)
try:
    tf.data.TextLineDataset(3)
except Exception as e:
    print(type(e).__name__, str(e).replace(d, "D"))
