"""``GradientTape``: what it watches, how often it can be used, and nesting."""

import numpy as np
import pytest

from kerasmini.backend import GradientTape, Variable, stop_gradient
from kerasmini.backend import numpy as bnp


def test_gradient_of_unused_source_is_none():
    w, unused = Variable(2.0), Variable(5.0)
    with GradientTape() as tape:
        y = bnp.square(w)
    assert tape.gradient(y, [w, unused])[1] is None


def test_gradient_of_trainable_variable_is_recorded_without_watch():
    w = Variable(np.array([1.0, -2.0]))
    with GradientTape() as tape:
        y = bnp.sum(bnp.square(w))
    np.testing.assert_allclose(tape.gradient(y, w), [2.0, -4.0])


def test_persistent_tape_allows_two_gradient_calls():
    w = Variable(3.0)
    with GradientTape(persistent=True) as tape:
        y = bnp.square(w)
        z = bnp.multiply(y, w)
    assert float(tape.gradient(y, w)) == 6.0
    assert float(tape.gradient(z, w)) == 27.0


def test_non_persistent_tape_raises_on_second_gradient_call():
    w = Variable(3.0)
    with GradientTape() as tape:
        y = bnp.square(w)
    tape.gradient(y, w)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
        tape.gradient(y, w)


def test_watch_makes_an_array_a_source():
    x = np.array([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = bnp.sum(bnp.multiply(x, 3.0))
    np.testing.assert_allclose(tape.gradient(y, x), [3.0, 3.0])


def test_unwatched_array_has_no_gradient():
    x = np.array([1.0, 2.0])
    with GradientTape() as tape:
        y = bnp.sum(bnp.square(x))
    assert tape.gradient(y, x) is None


def test_watch_rejects_what_is_not_a_tensor():
    with GradientTape() as tape, pytest.raises(ValueError, match="not a tensor"):
        tape.watch("x")


def test_non_trainable_variable_is_watched_only_on_request():
    v = Variable(2.0, trainable=False)
    with GradientTape(persistent=True) as tape:
        y = bnp.square(v)
    assert tape.gradient(y, v) is None
    with GradientTape() as tape:
        tape.watch(v)
        y = bnp.square(v)
    assert float(tape.gradient(y, v)) == 4.0


def test_watch_accessed_variables_false_watches_nothing_by_itself():
    w = Variable(2.0)
    with GradientTape(watch_accessed_variables=False) as tape:
        y = bnp.square(w)
    assert tape.gradient(y, w) is None


def test_stop_gradient_blocks_the_gradient():
    w = Variable(3.0)
    with GradientTape(persistent=True) as tape:
        y = bnp.multiply(w, stop_gradient(w))  # d/dw = stop_gradient(w) only
        z = bnp.square(bnp.stop_gradient(w))
    assert float(tape.gradient(y, w)) == 3.0
    assert tape.gradient(z, w) is None


def test_stop_recording_pauses_the_tape():
    w = Variable(3.0)
    with GradientTape() as tape, tape.stop_recording():
        y = bnp.square(w)
    assert tape.records == []
    assert tape.gradient(y, w) is None


def test_ops_after_the_with_block_are_not_recorded():
    w = Variable(3.0)
    with GradientTape() as tape:
        y = bnp.square(w)
    z = bnp.multiply(y, 2.0)
    assert len(tape.records) == 1
    assert tape.gradient(z, w) is None


def test_nested_tapes_give_second_derivatives():
    x = Variable(np.array([1.0, 2.0, -3.0]))
    with GradientTape() as outer:
        with GradientTape() as inner:
            y = bnp.sum(bnp.multiply(x, bnp.multiply(x, x)))  # x^3
        dy = inner.gradient(y, x)  # 3x^2
        d2 = bnp.sum(dy)
    np.testing.assert_allclose(dy, 3 * x.numpy() ** 2)
    np.testing.assert_allclose(outer.gradient(d2, x), 6 * x.numpy())  # 6x


def test_nested_tapes_differentiate_power_twice():
    x = np.array([0.5, 2.0])
    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            y = bnp.sum(bnp.power(x, 3.0))
        dy = inner.gradient(y, x)
    np.testing.assert_allclose(outer.gradient(dy, x), 6 * x)


def test_list_and_dict_sources_keep_their_structure():
    a, b, c = Variable(1.0), Variable(2.0), Variable(3.0)
    with GradientTape() as tape:
        y = bnp.multiply(bnp.multiply(a, b), c)
    grads = tape.gradient(y, {"a": a, "rest": (b, [c])})
    assert set(grads) == {"a", "rest"}
    assert isinstance(grads["rest"], tuple) and isinstance(grads["rest"][1], list)
    assert float(grads["a"]) == 6.0
    assert float(grads["rest"][0]) == 3.0
    assert float(grads["rest"][1][0]) == 2.0


def test_gradient_accumulates_when_a_value_is_used_twice():
    x = Variable(np.array([1.5, -2.0]))
    with GradientTape(persistent=True) as tape:
        y = bnp.sum(bnp.multiply(x, x))
        z = bnp.sum(bnp.add(x, x))
    np.testing.assert_allclose(tape.gradient(y, x), [3.0, -4.0])
    np.testing.assert_allclose(tape.gradient(z, x), [2.0, 2.0])


def test_gradient_for_an_intermediate_tensor_is_kept():
    x = np.array([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = bnp.square(x)  # both y and x are sources: y's gradient must survive
        z = bnp.sum(bnp.multiply(y, 3.0))
    grad_x, grad_y = tape.gradient(z, [x, y])
    np.testing.assert_allclose(grad_x, [6.0, 12.0])
    np.testing.assert_allclose(grad_y, [3.0, 3.0])


def test_list_target_adds_up_the_gradients():
    w = Variable(2.0)
    with GradientTape() as tape:
        y1, y2 = bnp.square(w), bnp.multiply(w, 3.0)
    assert float(tape.gradient([y1, y2], w)) == 7.0


def test_output_gradients_seed_the_backward_pass():
    x = np.array([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = bnp.square(x)
    grad = tape.gradient(y, x, output_gradients=np.array([10.0, 0.5]))
    np.testing.assert_allclose(grad, [20.0, 2.0])


def test_gradient_has_the_dtype_of_its_source():
    w = Variable(np.ones(3, "float32"))
    with GradientTape() as tape:
        y = bnp.sum(bnp.multiply(w, np.arange(3.0)))  # float64 constant
    grad = tape.gradient(y, w)
    assert grad.dtype == np.float32
    np.testing.assert_array_equal(grad, [0.0, 1.0, 2.0])


def test_watched_variables_lists_variables_in_first_use_order():
    a, b = Variable(1.0, name="a"), Variable(2.0, name="b")
    with GradientTape() as tape:
        bnp.add(bnp.multiply(b, a), a)
    assert tape.watched_variables() == (b, a)


def test_tape_repr_shows_records_and_persistence():
    with GradientTape(persistent=True) as tape:
        bnp.square(Variable(1.0))
    assert repr(tape) == "<GradientTape records=1, persistent=True>"
