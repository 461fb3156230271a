"""Confusion, top-k, regression and cross-entropy metrics: values against a
NumPy reference and, when real Keras 3 can run (as in
``test_saving_keras_interop.py``), against Keras itself on the same batches."""

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from kerasmini import metrics
from kerasmini.backend import function

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")
if KERAS_PYTHON is None and importlib.util.find_spec("keras") is not None:
    KERAS_PYTHON = sys.executable

RNG = np.random.default_rng(7)
Y_BIN = RNG.integers(0, 2, size=(40, 1)).astype("float32")
P_BIN = np.clip(Y_BIN * 0.3 + RNG.uniform(size=(40, 1)) * 0.7, 0, 1).astype("float32")
W = RNG.uniform(0.2, 2.0, size=(40,)).astype("float32")
Y_CAT = RNG.integers(0, 4, size=(40,))
P_CAT = RNG.uniform(size=(40, 4)).astype("float32")
Y_REG = RNG.normal(size=(40, 3)).astype("float32")
P_REG = (Y_REG + RNG.normal(scale=0.5, size=(40, 3))).astype("float32")

# (kerasmini/keras constructor expression, y_true, y_pred, with weights?)
CASES = {
    "precision": ("metrics.Precision()", "Y_BIN", "P_BIN", True),
    "precision_thresholds": ("metrics.Precision(thresholds=[0.2, 0.5, 0.8])",
                             "Y_BIN", "P_BIN", False),
    "precision_top_k": ("metrics.Precision(top_k=2)", "ONE_HOT", "P_CAT", False),
    "recall_class_id": ("metrics.Recall(class_id=1)", "ONE_HOT", "P_CAT", True),
    "recall": ("metrics.Recall(thresholds=0.4)", "Y_BIN", "P_BIN", True),
    "true_positives": ("metrics.TruePositives(thresholds=[0.3, 0.6])", "Y_BIN",
                       "P_BIN", True),
    "false_negatives": ("metrics.FalseNegatives()", "Y_BIN", "P_BIN", False),
    "auc_roc": ("metrics.AUC()", "Y_BIN", "P_BIN", False),
    "auc_roc_weighted": ("metrics.AUC(num_thresholds=50)", "Y_BIN", "P_BIN", True),
    "auc_pr": ("metrics.AUC(curve='PR')", "Y_BIN", "P_BIN", False),
    "auc_minoring": ("metrics.AUC(summation_method='minoring')", "Y_BIN", "P_BIN",
                     False),
    "auc_multi_label": ("metrics.AUC(multi_label=True)", "ONE_HOT", "P_CAT", False),
    "sparse_top_k": ("metrics.SparseTopKCategoricalAccuracy(k=2)", "Y_CAT", "P_CAT",
                     True),
    "top_k": ("metrics.TopKCategoricalAccuracy(k=3)", "ONE_HOT", "P_CAT", False),
    "rmse": ("metrics.RootMeanSquaredError()", "Y_REG", "P_REG", True),
    "mape": ("metrics.MeanAbsolutePercentageError()", "Y_REG", "P_REG", False),
    "bce": ("metrics.BinaryCrossentropy()", "Y_BIN", "P_BIN", True),
    "cce": ("metrics.CategoricalCrossentropy()", "ONE_HOT", "P_SOFT", False),
    "scce": ("metrics.SparseCategoricalCrossentropy(from_logits=True)", "Y_CAT",
             "P_CAT", True),
}
ONE_HOT = np.eye(4, dtype="float32")[Y_CAT]
P_SOFT = (P_CAT / P_CAT.sum(axis=1, keepdims=True)).astype("float32")
DATA = {"Y_BIN": Y_BIN, "P_BIN": P_BIN, "Y_CAT": Y_CAT, "P_CAT": P_CAT,
        "ONE_HOT": ONE_HOT, "P_SOFT": P_SOFT, "Y_REG": Y_REG, "P_REG": P_REG}


def run_case(module, name):
    """Two batches (20 + 20 samples) into one metric; its result as a list."""
    expression, y_name, p_name, weighted = CASES[name]
    metric = eval(expression, {"metrics": module})
    y, p = DATA[y_name], DATA[p_name]
    for half in (slice(0, 20), slice(20, 40)):
        sw = W[half] if weighted else None
        metric.update_state(y[half], p[half], sample_weight=sw)
    return np.atleast_1d(np.asarray(metric.result(), "float64")).tolist()


# ------------------------------------------------------------ NumPy oracles
def np_counts(y, p, thresholds, w=None):
    y, p = y.reshape(-1), p.reshape(-1)
    w = np.ones_like(p) if w is None else np.broadcast_to(
        w.reshape(len(w), *[1] * 0), (len(w),)).repeat(p.size // len(w))
    pos = p[None, :] > np.asarray(thresholds)[:, None]
    lab = y[None, :] > 0.5
    return {k: (m * w).sum(axis=1) for k, m in (
        ("tp", pos & lab), ("fp", pos & ~lab), ("tn", ~pos & ~lab),
        ("fn", ~pos & lab))}


def np_roc_auc(y, p, n=200, w=None):
    thresholds = [-1e-7] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1 + 1e-7]
    c = np_counts(y, p, thresholds, w)
    tpr = c["tp"] / np.maximum(c["tp"] + c["fn"], 1e-30)
    fpr = c["fp"] / np.maximum(c["fp"] + c["tn"], 1e-30)
    return float(np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2))


def test_precision_and_recall_match_numpy_counts():
    c = np_counts(Y_BIN, P_BIN, [0.5], W)
    assert run_case(metrics, "precision")[0] == pytest.approx(
        c["tp"][0] / (c["tp"][0] + c["fp"][0]), rel=1e-5)
    c = np_counts(Y_BIN, P_BIN, [0.4], W)
    assert run_case(metrics, "recall")[0] == pytest.approx(
        c["tp"][0] / (c["tp"][0] + c["fn"][0]), rel=1e-5)


def test_precision_with_several_thresholds_gives_one_value_each():
    c = np_counts(Y_BIN, P_BIN, [0.2, 0.5, 0.8])
    expected = c["tp"] / (c["tp"] + c["fp"])
    np.testing.assert_allclose(run_case(metrics, "precision_thresholds"), expected,
                               rtol=1e-5)


def test_precision_top_k_counts_only_the_k_largest_per_row():
    kept = np.argsort(-P_CAT, axis=1)[:, :2]
    predicted = np.zeros_like(ONE_HOT, dtype=bool)
    np.put_along_axis(predicted, kept, True, axis=1)
    tp = (predicted & (ONE_HOT > 0)).sum()
    assert run_case(metrics, "precision_top_k")[0] == pytest.approx(
        tp / predicted.sum(), rel=1e-5)


def test_recall_class_id_looks_at_one_column():
    lab, pos = ONE_HOT[:, 1] > 0, P_CAT[:, 1] > 0.5
    expected = (W * (lab & pos)).sum() / (W * lab).sum()
    assert run_case(metrics, "recall_class_id")[0] == pytest.approx(expected, rel=1e-5)


def test_confusion_counts_match_numpy():
    c = np_counts(Y_BIN, P_BIN, [0.3, 0.6], W)
    np.testing.assert_allclose(run_case(metrics, "true_positives"), c["tp"], rtol=1e-5)
    c = np_counts(Y_BIN, P_BIN, [0.5])
    assert run_case(metrics, "false_negatives") == c["fn"].tolist()


def test_roc_auc_matches_numpy_riemann_sum_and_is_close_to_exact_auc():
    value = run_case(metrics, "auc_roc")[0]
    assert value == pytest.approx(np_roc_auc(Y_BIN, P_BIN), rel=1e-5)
    y, p = Y_BIN.ravel(), P_BIN.ravel()
    exact = np.mean([(pp > pn) + 0.5 * (pp == pn) for pp in p[y == 1]
                     for pn in p[y == 0]])
    assert value == pytest.approx(exact, abs=0.02)
    weighted = run_case(metrics, "auc_roc_weighted")[0]
    assert weighted == pytest.approx(np_roc_auc(Y_BIN, P_BIN, 50, W), rel=1e-5)


def test_auc_state_variables_and_reset():
    auc = metrics.AUC(num_thresholds=10)
    assert [(v.path, v.shape) for v in auc.variables] == [
        (f"{auc.name}/true_positives", (10,)), (f"{auc.name}/false_positives", (10,)),
        (f"{auc.name}/true_negatives", (10,)), (f"{auc.name}/false_negatives", (10,))]
    auc.update_state(Y_BIN, P_BIN)
    assert float(auc.result()) > 0.5
    auc.reset_state()
    assert float(auc.result()) == 0.0
    assert sorted(auc.get_config()) == [
        "curve", "dtype", "from_logits", "label_weights", "multi_label", "name",
        "num_labels", "num_thresholds", "summation_method"]


def test_top_k_accuracies_match_numpy_ranks():
    rank = (P_CAT > P_CAT[np.arange(40), Y_CAT][:, None]).sum(axis=1)
    expected = (W * (rank < 2)).sum() / W.sum()
    assert run_case(metrics, "sparse_top_k")[0] == pytest.approx(expected, rel=1e-6)
    assert run_case(metrics, "top_k")[0] == pytest.approx((rank < 3).mean(), rel=1e-6)


def test_rmse_mape_and_crossentropies_match_numpy():
    sq = ((Y_REG - P_REG) ** 2)
    rmse = np.sqrt((sq * W[:, None]).sum() / (W.sum() * 3))
    assert run_case(metrics, "rmse")[0] == pytest.approx(rmse, rel=1e-5)
    mape = 100 * np.mean(np.abs(Y_REG - P_REG) / np.maximum(np.abs(Y_REG), 1e-7))
    assert run_case(metrics, "mape")[0] == pytest.approx(mape, rel=1e-4)
    p = np.clip(P_BIN, 1e-7, 1 - 1e-7)
    bce = -(Y_BIN * np.log(p) + (1 - Y_BIN) * np.log(1 - p)).ravel()
    assert run_case(metrics, "bce")[0] == pytest.approx((bce * W).sum() / W.sum(),
                                                       rel=1e-4)
    cce = -np.log(P_SOFT[np.arange(40), Y_CAT]).mean()
    assert run_case(metrics, "cce")[0] == pytest.approx(cce, rel=1e-5)


def test_confusion_metric_updates_are_replayed_in_a_traced_function():
    auc, precision = metrics.AUC(), metrics.Precision()

    def step(y, p):
        auc.update_state(y, p)
        precision.update_state(y, p)
        return auc.result()

    traced = function(step)
    for half in (slice(0, 20), slice(20, 40)):
        traced(Y_BIN[half], P_BIN[half])
    assert traced.trace_count == 1
    assert float(auc.result()) == pytest.approx(np_roc_auc(Y_BIN, P_BIN), rel=1e-5)
    c = np_counts(Y_BIN, P_BIN, [0.5])
    assert float(precision.result()) == pytest.approx(
        c["tp"][0] / (c["tp"][0] + c["fp"][0]), rel=1e-5)


def test_bad_thresholds_and_curve_are_refused():
    with pytest.raises(ValueError, match="Threshold values must be in"):
        metrics.Precision(thresholds=1.5)
    with pytest.raises(ValueError, match="Invalid AUC curve"):
        metrics.AUC(curve="ROCK")
    with pytest.raises(ValueError, match="top_k"):
        metrics.Recall(top_k=0)


def test_metric_names_and_configs_follow_keras():
    assert metrics.get("auc").name.startswith("auc")
    assert sorted(metrics.Precision().get_config()) == [
        "class_id", "dtype", "name", "thresholds", "top_k"]
    assert sorted(metrics.SparseTopKCategoricalAccuracy().get_config()) == [
        "dtype", "k", "name"]
    assert metrics.SparseTopKCategoricalAccuracy().name == \
        "sparse_top_k_categorical_accuracy"
    assert metrics.TruePositives().variables[0].path.endswith("/accumulator")


# ------------------------------------------------------------ real Keras
KERAS_SIDE = textwrap.dedent('''
    import json, sys
    import numpy as np
    import keras
    from keras import metrics
    arrays = dict(np.load(sys.argv[1]))
    globals().update(arrays)
    CASES = json.loads(sys.argv[2])
    DATA = {k: arrays[k] for k in arrays}
    W = arrays["W"]
''')


@pytest.mark.skipif(KERAS_PYTHON is None, reason="real Keras is not available")
def test_every_case_matches_real_keras(tmp_path):
    np.savez(tmp_path / "data.npz", W=W, **DATA)
    source = KERAS_SIDE + textwrap.dedent(
        __import__("inspect").getsource(run_case)) + textwrap.dedent('''
        print(json.dumps({name: run_case(metrics, name) for name in CASES}))
    ''')
    env = dict(os.environ)
    env.setdefault("KERAS_BACKEND", "torch")
    result = subprocess.run(
        [KERAS_PYTHON, "-c", source, str(tmp_path / "data.npz"), json.dumps(CASES)],
        capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    theirs = json.loads(result.stdout.strip().splitlines()[-1])
    for name in CASES:
        np.testing.assert_allclose(run_case(metrics, name), theirs[name], rtol=2e-5,
                                   atol=1e-6, err_msg=name)
