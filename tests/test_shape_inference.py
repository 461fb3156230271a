"""kerasmini.engine.shape_inference: output shapes without data (dry runs)."""

import numpy as np
import pytest

import kerasmini as keras
from kerasmini import ops
from kerasmini.backend.core import STATE
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.engine.shape_inference import dry_run, infer_by_dry_run, to_shape


class Tile(keras.Layer):
    """Doubles the batch: a layer whose output batch size is not the input's."""

    def call(self, x):
        return ops.concatenate([x, x], axis=0)


def test_unknown_dims_become_none_known_dims_stay():
    out = infer_by_dry_run(keras.layers.Flatten(), (KerasTensor((None, 2, 3)),), {})
    assert out.shape == (None, 6) and out.dtype == "float32"


def test_a_dimension_that_depends_on_an_unknown_one_is_unknown():
    out = infer_by_dry_run(Tile(), (KerasTensor((None, 3)),), {})
    assert out.shape == (None, 3)


def test_known_shapes_run_once_and_stay_exact():
    out = infer_by_dry_run(Tile(), (KerasTensor((2, 3)),), {})
    assert out.shape == (4, 3)


def test_dtype_comes_from_the_computation():
    class ToInt(keras.Layer):
        def call(self, x):
            return ops.cast(x, "int32")

    assert infer_by_dry_run(ToInt(), (KerasTensor((None, 2)),), {}).dtype == "int32"


def test_nested_outputs_keep_their_structure():
    class Pair(keras.Layer):
        def call(self, x):
            return {"same": x, "sum": ops.sum(x, axis=-1)}

    out = infer_by_dry_run(Pair(), (KerasTensor((None, 4)),), {})
    assert out["same"].shape == (None, 4) and out["sum"].shape == (None,)


def test_dry_run_records_no_tape_graph_or_node():
    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    with keras.GradientTape() as tape:
        infer_by_dry_run(layer, (KerasTensor((None, 3)),), {})
    assert tape.records == [] and layer._inbound_nodes == []
    assert STATE.symbolic == 0 and not STATE.graphs


def test_dry_run_builds_sublayers():
    class Block(keras.Layer):
        def __init__(self):
            super().__init__()
            self.inner = keras.layers.Dense(5)

        def call(self, x):
            return self.inner(x)

    block = Block()
    assert dry_run(block, (None, 3), "float32").shape == (None, 5)
    assert block.inner.built and block.inner.kernel.shape == (3, 5)


def test_failing_call_gives_a_clear_error():
    class Broken(keras.Layer):
        def call(self, x):
            raise RuntimeError("no maths today")

    with pytest.raises(ValueError, match="Could not automatically infer the output"):
        infer_by_dry_run(Broken(), (KerasTensor((None, 2)),), {})


def test_call_returning_none_is_refused():
    class Nothing(keras.Layer):
        def call(self, x):
            return None

    with pytest.raises(ValueError, match="should return a Tensor"):
        infer_by_dry_run(Nothing(), (KerasTensor((None, 2)),), {})


def test_to_shape_turns_json_lists_into_tuples():
    assert to_shape([None, 3]) == (None, 3)
    assert to_shape([[None, 3], [None, 2]]) == [(None, 3), (None, 2)]
    assert to_shape(np.int64(3)) == np.int64(3)
