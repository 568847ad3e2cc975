"""TFRecord files: tf.io.TFRecordWriter (plain, GZIP, ZLIB; the plain file byte for byte
TensorFlow's: its hash is printed), tf.data.TFRecordDataset (records, interleaved files,
a map over them) and the DataLossError of a corrupted or truncated file."""
import hashlib
import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
plain = os.path.join(d, "a.tfrecord")
with tf.io.TFRecordWriter(plain) as w:
    for r in [b"hello", b"", b"x" * 300, "text"]:
        w.write(r)
print(hashlib.sha256(open(plain, "rb").read()).hexdigest()[:16], os.path.getsize(plain))
ds = tf.data.TFRecordDataset(plain)
print(ds, int(ds.cardinality()))
print([r[:8] for r in ds.as_numpy_iterator()])
for kind in ("GZIP", "ZLIB"):
    p = os.path.join(d, "b." + kind)
    with tf.io.TFRecordWriter(p, tf.io.TFRecordOptions(compression_type=kind)) as w:
        w.write(b"one")
        w.write(tf.constant(b"two").numpy())
    print(kind, list(tf.data.TFRecordDataset(p, compression_type=kind).as_numpy_iterator()))
print(list(tf.data.TFRecordDataset([plain, plain], num_parallel_reads=2)
           .map(tf.strings.length).as_numpy_iterator()))
data = open(plain, "rb").read()
bad = os.path.join(d, "bad.tfrecord")
open(bad, "wb").write(data[:20] + bytes([data[20] ^ 1]) + data[21:])
try:
    print(list(tf.data.TFRecordDataset(bad).as_numpy_iterator()))
except Exception as e:
    print(type(e).__name__)
short = os.path.join(d, "short.tfrecord")
open(short, "wb").write(data[:-3])
try:
    print(len(list(tf.data.TFRecordDataset(short).as_numpy_iterator())))
except Exception as e:
    print(type(e).__name__)
