"""Programs run under ``tf.debugging.enable_check_numerics()``: ``tools/record_check_numerics.py``
records TensorFlow 2.21's outcome of each (``["OK", str(result)]`` or the exception's class
and message), ``tests/core/test_numerics_mode.py`` compares tapeflow's. Each case is an
expression over ``tf`` and ``np``."""

CASES = {
    "log_zero": "tf.math.log(tf.constant([1.0, 0.0]))",
    "div_by_zero_all_kinds": "tf.constant([1.0, -1.0, 0.0, float('nan')]) / 0.0",
    "log_negative_and_zero": "tf.math.log(tf.constant([-1.0, 0.0]))",
    "exp_overflow": "tf.exp(tf.constant([1000.0, -1000.0]))",
    "inf_minus_inf": "tf.constant([1.0, np.inf]) - tf.constant([1.0, np.inf])",
    "float64": "tf.math.log(tf.constant([0.0], tf.float64))",
    "scalar_sqrt": "tf.sqrt(tf.constant(-1.0))",
    "matmul_overflow": "tf.matmul(tf.constant([[1e38, 1e38]]), tf.constant([[10.0], [10.0]]))",
    "cast_to_half": "tf.cast(tf.constant([np.inf]), tf.float16)",
    "select_three_inputs": "tf.where(tf.constant([True]), tf.constant([np.inf]), "
                           "tf.constant([1.0]))",
    "two_dims": "tf.math.log(tf.constant([[0.0, 1.0], [2.0, 3.0]]))",
    "finite_passes": "tf.math.log(tf.constant([1.0, 2.0]))",
    "integers_unchecked": "tf.constant([1, 0]) // tf.constant([1, 1])",
    "constant_unchecked": "tf.constant(float('nan'))",
    "identity_unchecked": "tf.identity(tf.constant(float('inf')))",
    "reshape_is_safe": "tf.reshape(tf.constant([np.inf, 1.0]), [2, 1])",
    "maximum_is_safe": "tf.maximum(tf.constant([np.inf]), 1.0)",
    "variable_unchecked": "tf.Variable([np.nan]).numpy()",
}


def run_case(name, tf, np):
    """``["OK", text]`` or ``[exception class name, message]`` of case ``name``."""
    try:
        return ["OK", str(eval(CASES[name], {"tf": tf, "np": np}))]
    except Exception as e:  # noqa: BLE001 - the outcome is the record
        return [type(e).__name__, str(e)]
