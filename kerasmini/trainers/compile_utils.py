"""What ``compile(loss=..., metrics=...)`` turns into: two containers.

:class:`CompileLoss` holds one loss per model output (with its weight) and
sums them; :class:`CompileMetrics` holds the metrics of every output. Both
are built lazily from the first batch, because the strings ``"accuracy"``
and ``"crossentropy"`` are resolved from the shapes of the targets and
predictions (``keras/src/trainers/compile_utils.py`` does the same):

* predictions with a last axis of 1: binary;
* targets of lower rank than the predictions, or a last axis of 1 against
  several classes: sparse (integer labels);
* otherwise categorical (one-hot labels).

>>> import numpy as np
>>> m = CompileMetrics(["accuracy"], None)
>>> m.update_state(np.array([1, 0]), np.array([[0.2, 0.8], [0.3, 0.7]]))
>>> m.metrics, {k: float(v) for k, v in m.result().items()}
([<SparseCategoricalAccuracy name=accuracy>], {'accuracy': 0.5})
"""

import numpy as np

from kerasmini import losses as losses_module
from kerasmini import metrics as metrics_module
from kerasmini import ops
from kerasmini.backend import validation


def is_binary_or_sparse_categorical(y_true, y_pred):
    """``(is_binary, is_sparse_categorical)`` from the two shapes.

    >>> import numpy as np
    >>> is_binary_or_sparse_categorical(np.zeros((4,)), np.zeros((4, 3)))
    (False, True)
    """
    true_shape, pred_shape = np.shape(y_true), np.shape(y_pred)
    is_binary = pred_shape[-1:] == (1,)
    is_sparse = len(true_shape) < len(pred_shape) or (
        true_shape[-1:] == (1,) and pred_shape[-1:] != (1,))
    return is_binary, is_sparse


def get_metric(identifier, y_true, y_pred):
    """A metric object for ``identifier``, resolving ``"accuracy"``/``"acc"``.

    >>> import numpy as np
    >>> get_metric("accuracy", np.zeros((4, 1)), np.zeros((4, 1)))
    <BinaryAccuracy name=accuracy>
    """
    if isinstance(identifier, str) and identifier.lower() in ("accuracy", "acc"):
        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
        if is_binary:
            return metrics_module.BinaryAccuracy(name=identifier)
        if is_sparse:
            return metrics_module.SparseCategoricalAccuracy(name=identifier)
        return metrics_module.CategoricalAccuracy(name=identifier)
    metric = metrics_module.get(identifier)
    if not isinstance(metric, metrics_module.Metric):
        metric = metrics_module.MeanMetricWrapper(metric)
    if isinstance(identifier, str):
        metric.name = identifier
    return metric


def get_loss(identifier, y_true, y_pred):
    """A ``Loss`` object for ``identifier``, resolving ``"crossentropy"``/``"ce"``.

    >>> import numpy as np
    >>> get_loss("crossentropy", np.zeros((4,)), np.zeros((4, 3))).fn.__name__
    'sparse_categorical_crossentropy'
    """
    if identifier is None:
        return None
    if isinstance(identifier, str) and identifier.lower() in ("crossentropy", "ce"):
        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
        loss = (losses_module.binary_crossentropy if is_binary else
                losses_module.sparse_categorical_crossentropy if is_sparse else
                losses_module.categorical_crossentropy)
    else:
        loss = losses_module.get(identifier)
    if not isinstance(loss, losses_module.Loss):
        name = identifier if isinstance(identifier, str) else getattr(
            loss, "__name__", None)
        loss = losses_module.LossFunctionWrapper(loss, name=name)
    return loss


def _per_output(value, output_names, num_outputs, what):
    """Spread a user argument (one value, a list, or a dict by output name)
    over the outputs: a list with one entry per output. An entry that is a
    one-element list stands for its element (``loss=["mse"]``,
    ``{"out": ["mse"]}``, ``metrics=[["mae", "mse"]]``), as in Keras 3.

    >>> _per_output({"b": ["mse"], "a": "mae"}, ["a", "b"], 2, "loss")
    ['mae', 'mse']
    >>> _per_output([["mae", "mse"]], ["out"], 1, "metrics")
    [['mae', 'mse']]
    """
    return [entry[0] if isinstance(entry, (list, tuple)) and len(entry) == 1
            else entry
            for entry in _spread(value, output_names, num_outputs, what)]


def _spread(value, output_names, num_outputs, what):
    if isinstance(value, dict):
        unknown = set(value) - set(output_names or [])
        if unknown:
            raise ValueError(
                f"Unknown output names in `{what}`: {sorted(unknown)}. Expected "
                f"keys among the model's output names {output_names}. "
                f"Received: {what}={value}"
            )
        return [value.get(name) for name in output_names]
    if isinstance(value, (list, tuple)) and num_outputs > 1:
        if len(value) != num_outputs:
            raise ValueError(
                f"When the model has {num_outputs} outputs, `{what}` as a list "
                f"must have one entry per output. Received: {what}={value}"
            )
        return list(value)
    return [value] * num_outputs


def flatten_outputs(y, output_names, num_outputs, what="y"):
    """``y`` (one array, a list or a dict by output name) as a list.

    >>> flatten_outputs({"b": 2, "a": 1}, ["a", "b"], 2)
    [1, 2]
    """
    if isinstance(y, dict):
        missing = [n for n in output_names if n not in y]
        if missing:
            raise ValueError(
                f"Missing data for outputs {missing} in `{what}`: it has keys "
                f"{list(y)}. Expected the model's output names {output_names}."
            )
        return [y[name] for name in output_names]
    if isinstance(y, (list, tuple)):
        return list(y)
    return [y]


def _output_names(y_pred, output_names):
    num_outputs = len(y_pred) if isinstance(y_pred, (list, tuple, dict)) else 1
    if isinstance(y_pred, dict):
        return list(y_pred), num_outputs
    if output_names is None or len(output_names) != num_outputs:
        output_names = [f"output_{i}" for i in range(num_outputs)]
    return list(output_names), num_outputs


class CompileLoss:
    """The compiled loss: ``sum(weight_i * loss_i(y_true_i, y_pred_i))``.

    With several outputs it also tracks each output's loss in a ``Mean``
    named ``<output name>_loss``.

    >>> import numpy as np
    >>> loss = CompileLoss(["mse", "mae"], loss_weights=[1.0, 0.5], output_names=["a", "b"])
    >>> float(loss([np.zeros((2, 1)), np.zeros((2, 1))], [np.ones((2, 1)), np.ones((2, 1))]))
    1.5
    >>> [m.name for m in loss.metrics]
    ['a_loss', 'b_loss']
    """

    def __init__(self, loss, loss_weights=None, output_names=None):
        self._user_loss = loss
        self._user_loss_weights = loss_weights
        self.output_names = output_names
        self.built = False
        self.metrics = []

    def build(self, y_true, y_pred):
        names, num_outputs = _output_names(y_pred, self.output_names)
        self._names = names
        y_true_list = flatten_outputs(y_true, names, num_outputs, "y")
        y_pred_list = flatten_outputs(y_pred, names, num_outputs, "y_pred")
        if len(y_true_list) != num_outputs:
            raise ValueError(
                f"The model has {num_outputs} output(s) {names} but the targets `y` "
                f"hold {len(y_true_list)} array(s). Pass one target per output."
            )
        identifiers = _per_output(self._user_loss, names, num_outputs, "loss")
        if isinstance(self._user_loss, dict) and not isinstance(y_pred, dict) \
                and set(names) - set(self._user_loss):
            # outputs in a list: Keras 3 wants every one named (None: no loss)
            raise ValueError(
                f"Expected keys {names} in loss dict, but found "
                f"loss.keys()={list(self._user_loss)}. Give every output a "
                "loss, or None for an output that is not trained for."
            )
        weights = self._user_loss_weights
        weights = [None] * num_outputs if weights is None else _per_output(
            weights, names, num_outputs, "loss_weights")
        weights = [None if w is None else validation.check_float(w, "loss_weights")
                   for w in weights]
        self.losses = [get_loss(i, yt, yp) for i, yt, yp in
                       zip(identifiers, y_true_list, y_pred_list)]
        self.loss_weights = weights
        if sum(loss is not None for loss in self.losses) > 1:
            self.metrics = [metrics_module.Mean(name=f"{name}_loss")
                            for name, loss in zip(names, self.losses)
                            if loss is not None]
        self.built = True

    def __call__(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        num_outputs = len(self.losses)
        y_true = flatten_outputs(y_true, self._names, num_outputs, "y")
        y_pred = flatten_outputs(y_pred, self._names, num_outputs, "y_pred")
        sample_weights = flatten_outputs(sample_weight, self._names, num_outputs,
                                         "sample_weight")
        if len(sample_weights) < num_outputs:  # one weight array for all outputs
            sample_weights = sample_weights * num_outputs
        trackers = iter(self.metrics)
        total = None
        for name, loss, weight, yt, yp, sw in zip(self._names, self.losses,
                                                  self.loss_weights, y_true, y_pred,
                                                  sample_weights):
            if loss is None:
                continue
            if yt is None:
                raise ValueError(
                    f"The model was compiled with a loss for output "
                    f"'{name}' but received no "
                    "targets for it: pass `y` to `fit`/`evaluate`, or compile "
                    f"without a loss. Received: y=None, loss={loss!r}"
                )
            value = loss(yt, yp, sw)
            if self.metrics:
                next(trackers).update_state(value, sample_weight=np.shape(yp)[0])
            if weight is not None:
                value = ops.multiply(value, weight)
            total = value if total is None else ops.add(total, value)
        return total

    def __repr__(self):
        return f"<CompileLoss loss={self._user_loss!r}, built={self.built}>"


class CompileMetrics(metrics_module.Metric):
    """The compiled metrics of every output, as one metric whose result is a
    dict (``{"accuracy": ...}``, or ``{"<output>_accuracy": ...}`` with
    several outputs). ``weighted_metrics`` also see ``sample_weight``.

    >>> import numpy as np
    >>> m = CompileMetrics(["mae"], None)
    >>> m.update_state(np.zeros((2, 1)), np.ones((2, 1)))
    >>> {k: float(v) for k, v in m.result().items()}
    {'mae': 1.0}
    """

    def __init__(self, metrics, weighted_metrics, output_names=None):
        super().__init__(name="compile_metrics")
        for what, value in (("metrics", metrics), ("weighted_metrics", weighted_metrics)):
            if value and not isinstance(value, (list, tuple, dict)):
                raise ValueError(
                    f"Expected `{what}` argument to be a list, tuple, or dict. "
                    f"Received instead: {what}={value} of type {type(value)}"
                )
        self._user_metrics = metrics
        self._user_weighted_metrics = weighted_metrics
        self.output_names = output_names
        self.built = False
        self._flat = []  # (output name or None, metric, weighted)

    @property
    def metrics(self):
        return [metric for _, metric, _ in self._flat]

    @property
    def variables(self):
        return [v for m in self.metrics for v in m.variables]

    def build(self, y_true, y_pred):
        names, num_outputs = _output_names(y_pred, self.output_names)
        self._names = names
        y_true_list = flatten_outputs(y_true, names, num_outputs, "y")
        y_pred_list = flatten_outputs(y_pred, names, num_outputs, "y_pred")
        for user, weighted in ((self._user_metrics, False),
                               (self._user_weighted_metrics, True)):
            if not user:
                continue
            per_output = _per_output(user, names, num_outputs, "metrics")
            for name, ids, yt, yp in zip(names, per_output, y_true_list, y_pred_list):
                if ids is None:
                    continue
                for identifier in ids if isinstance(ids, (list, tuple)) else [ids]:
                    if identifier is None:  # no metric here, as in Keras
                        continue
                    prefix = name if num_outputs > 1 else None
                    self._flat.append((prefix, get_metric(identifier, yt, yp), weighted))
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        num_outputs = len(self._names)
        y_true = flatten_outputs(y_true, self._names, num_outputs, "y")
        y_pred = flatten_outputs(y_pred, self._names, num_outputs, "y_pred")
        index = {name: i for i, name in enumerate(self._names)}
        for prefix, metric, weighted in self._flat:
            i = index[prefix] if prefix is not None else 0
            sw = None
            if weighted and sample_weight is not None:
                weights = flatten_outputs(sample_weight, self._names, num_outputs)
                sw = weights[i] if len(weights) > i else weights[0]
            metric.update_state(y_true[i], y_pred[i], sample_weight=sw)

    def reset_state(self):
        for metric in self.metrics:
            metric.reset_state()

    def result(self):
        results = {}
        for prefix, metric, weighted in self._flat:
            name = metric.name if prefix is None else f"{prefix}_{metric.name}"
            if name in results:
                name = f"weighted_{name}" if weighted else f"{name}_1"
            results[name] = metric.result()
        return results
