"""The CSV readers against TensorFlow 2.21's recorded answers (tools/record_csv.py ->
tests/fixtures/data/csv.json): ``tf.io.decode_csv``, ``tf.data.experimental.CsvDataset`` and
``make_csv_dataset`` (type inference, defaults, quoting, select columns, labels, epochs) and
their errors."""
import json
import pathlib

import pytest

import tapeflow as tf
from tests.data import csv_cases

RECORDED = json.loads((pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "data" /
                       "csv.json").read_text())["cases"]


def test_every_case_was_recorded():
    assert set(RECORDED) == set(csv_cases.CASES)


@pytest.mark.parametrize("key", csv_cases.CASES)
def test_csv_case_matches_tensorflow(key, tmp_path):
    csv_cases.write_files(str(tmp_path))
    want = RECORDED[key]
    try:
        got = csv_cases.run(tf, key, str(tmp_path))
    except Exception as exc:  # noqa: BLE001 - compared with TF's class and message
        got = {"error": type(exc).__name__,
               "message": str(exc).split("\n")[0].replace(str(tmp_path), "<dir>")}
    assert json.loads(json.dumps(got, default=list)) == want


def test_make_csv_dataset_repeats_forever_and_drops_the_partial_batch(tmp_path):
    csv_cases.write_files(str(tmp_path))
    ds = tf.data.experimental.make_csv_dataset(str(tmp_path / "a.csv"), batch_size=2,
                                               shuffle=False, na_value="NA")
    sizes = [int(f["age"].shape[0]) for f in ds.take(5)]
    assert sizes == [2, 2, 2, 2, 2]
    assert [list(f["age"].numpy()) for f in ds.take(2)] == [[22, 0], [35, 22]]
