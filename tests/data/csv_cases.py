"""CSV reader cases run alike under TensorFlow (tools/record_csv.py) and tapeflow
(tests/data/test_csv.py): ``run(tf, key, directory)`` gives plain lists of each element's
dtypes and values."""
import os

FILES = {
    "a.csv": 'name,age,fare,survived,big\n"Smith, J",22,7.25,0,3000000000\nDoe,,71.28,1,1\n'
             '"Quote ""Q""",35,NA,1,2\n',
    "b.csv": "name,age,fare,survived,big\nX,5,1e40,0,7\n",
    "noheader.csv": "1;2.5;x\n3;;y\r\n5;0.5;\n",
    "bad.csv": "a,b\n1,2\n3\n",
    "strings.csv": "k,v\nnan,1\ninf,2\n-inf,3\n",
}


def write_files(directory):
    for name, text in FILES.items():
        with open(os.path.join(directory, name), "w", newline="") as f:
            f.write(text)


def _plain(x):
    v = x.numpy()
    return [x.dtype.name, v.tolist() if hasattr(v, "tolist") else v]


def _decode(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, list):
        return [_decode(u) for u in v]
    return v


def _element(e):
    if isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], dict):
        return {"features": {k: _decode(_plain(v)) for k, v in e[0].items()},
                "label": _decode(_plain(e[1]))}
    if isinstance(e, dict):
        return {"features": {k: _decode(_plain(v)) for k, v in e.items()}}
    return [_decode(_plain(t)) for t in e]


def run(tf, key, d):
    p = lambda name: os.path.join(d, name)  # noqa: E731
    mk = tf.data.experimental.make_csv_dataset
    if key == "make_label":
        ds = mk(p("*.csv").replace("*", "[ab]"), batch_size=2, label_name="survived",
                num_epochs=1, shuffle=False, na_value="NA")
    elif key == "make_select":
        ds = mk(p("a.csv"), batch_size=3, select_columns=["big", "name"], num_epochs=1,
                shuffle=False)
    elif key == "make_defaults":
        ds = mk(p("a.csv"), batch_size=2, column_defaults=["", [0], [0.0], [0], [0]],
                num_epochs=1, shuffle=False, na_value="NA")
    elif key == "make_two_epochs":
        ds = mk(p("b.csv"), batch_size=1, num_epochs=2, shuffle=False)
    elif key == "make_names_noheader":
        ds = mk(p("noheader.csv"), batch_size=3, column_names=["i", "f", "s"],
                field_delim=";", header=False, num_epochs=1, shuffle=False)
    elif key == "make_inferred_strings":
        ds = mk(p("strings.csv"), batch_size=3, num_epochs=1, shuffle=False)
    elif key == "make_bad_label":
        ds = mk(p("a.csv"), batch_size=2, label_name="nope", num_epochs=1)
    elif key == "make_no_match":
        ds = mk(p("zzz*.csv"), batch_size=2)
    elif key == "make_bad_width":
        ds = mk(p("bad.csv"), batch_size=2)
    elif key == "csv_dataset":
        ds = tf.data.experimental.CsvDataset(
            p("a.csv"), [tf.string, [0], [0.0], tf.int32, tf.int64], header=True,
            na_value="NA")
    elif key == "csv_dataset_select":
        ds = tf.data.experimental.CsvDataset(p("noheader.csv"), [[0], ["?"]],
                                             field_delim=";", select_cols=[0, 2])
    elif key == "csv_dataset_required":
        ds = tf.data.experimental.CsvDataset(p("noheader.csv"), [tf.int32, tf.float32,
                                                                 tf.string], field_delim=";")
    elif key == "csv_dataset_bad_int":
        ds = tf.data.experimental.CsvDataset(p("a.csv"), [tf.int32] * 5, header=True)
    elif key == "decode_csv":
        return [_decode(_plain(t)) for t in tf.io.decode_csv(
            ["1,2.5,hello", '3,,"a,""b"""', "5,1e3,"], [[0], [0.0], ["x"]])]
    elif key == "decode_csv_na_select":
        return [_decode(_plain(t)) for t in tf.io.decode_csv(
            ["NA;2;q", "4;NA;r"], [[7], ["z"]], field_delim=";", na_value="NA",
            select_cols=[0, 2])]
    elif key == "decode_csv_count":
        return tf.io.decode_csv(["1,2"], [[0], [0], [0]])
    elif key == "decode_csv_quote":
        return tf.io.decode_csv(['1,"ab"c'], [[0], [""]])
    elif key == "decode_csv_unquoted":
        return tf.io.decode_csv(['1,a"b'], [[0], [""]])
    elif key == "decode_csv_int_range":
        return tf.io.decode_csv(["99999999999,1"], [[0], [0]])
    else:
        raise KeyError(key)
    return [_element(e) for e in ds]


CASES = ["make_label", "make_select", "make_defaults", "make_two_epochs",
         "make_names_noheader", "make_inferred_strings", "make_bad_label", "make_no_match",
         "make_bad_width", "csv_dataset", "csv_dataset_select", "csv_dataset_required",
         "csv_dataset_bad_int", "decode_csv", "decode_csv_na_select", "decode_csv_count",
         "decode_csv_quote", "decode_csv_unquoted", "decode_csv_int_range"]
