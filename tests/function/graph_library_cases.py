"""Functions whose GraphDef library holds several branch and loop functions: TF 2.21's
order of ``as_graph_def().library.function`` (recorded by ``tools/record_graph_library.py``)
is its C++ ``gtl::FlatMap``'s, which ``graph_def.library_order`` reproduces
(``tests/function/test_graph_library.py``). Each case defines ``f`` and ``args``."""

CASES = {
    "one_cond": '''
@tf.function
def f(x):
    if x > 0:
        y = x * 2
    else:
        y = x - 1
    return y
args = (tf.constant(3),)
''',
    "cond_and_while": '''
@tf.function
def f(x):
    if x > 0:
        y = x * 2
    else:
        y = x - 1
    i = 0
    while i < x:
        i += 1
        if i > 2:
            y += 1
    return y
args = (tf.constant(3),)
''',
    "many_conds": '''
@tf.function
def f(x):
    for k in range(6):
        if x > k:
            x = x + 1
        else:
            x = x - 1
    return x
args = (tf.constant(3),)
''',
    "nested_loops": '''
@tf.function
def f(x):
    s = tf.constant(0)
    for i in tf.range(x):
        for j in tf.range(i):
            if j % 2 == 0:
                s += j
            else:
                s -= 1
    return s
args = (tf.constant(4),)
''',
}


def run_case(name, tf, directory):
    """Run case ``name`` with module ``tf`` from a file in ``directory`` (AutoGraph reads
    the source): ``(f, args)``."""
    import os
    import runpy
    path = os.path.join(directory, f"graph_library_case_{name}.py")
    with open(path, "w") as fh:
        fh.write(CASES[name])
    ns = runpy.run_path(path, init_globals={"tf": tf})
    return ns["f"], ns["args"]
