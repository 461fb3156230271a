"""kerasmini.trainers.data_adapters and epoch_iterator: from the arrays given to
fit to batches."""

import numpy as np
import pytest

from kerasmini import utils
from kerasmini.trainers.data_adapters import data_adapter_utils
from kerasmini.trainers.data_adapters.data_adapter_utils import (
    check_data_cardinality,
    class_weight_to_sample_weights,
    train_validation_split,
    unpack_x_y_sample_weight,
)
from kerasmini.trainers.epoch_iterator import EpochIterator


def _epoch(iterator):
    return [batch for _, _, batches in iterator for batch in batches]


def test_epoch_iterator_batches_in_order_without_shuffle():
    batches = _epoch(EpochIterator(np.arange(10), np.arange(10) * 2, batch_size=4))
    assert [b[0].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert all(np.array_equal(b[1], b[0] * 2) for b in batches)


def test_epoch_iterator_default_batch_size_is_32():
    assert EpochIterator(np.zeros((100, 2))).num_batches == 4


def test_shuffle_sees_every_sample_once_and_keeps_pairs():
    x = np.arange(50)
    batches = _epoch(EpochIterator(x, x + 100, batch_size=8, shuffle=True))
    seen = np.concatenate([b[0] for b in batches])
    assert sorted(seen.tolist()) == x.tolist() and seen.tolist() != x.tolist()
    assert all(np.array_equal(b[1], b[0] + 100) for b in batches)


def test_shuffle_is_deterministic_under_a_seed():
    def order():
        utils.set_random_seed(7)
        return np.concatenate(_epoch_x(EpochIterator(np.arange(20), shuffle=True)))

    def _epoch_x(it):
        return [b[0] for _, _, batches in it for b in batches]

    assert order().tolist() == order().tolist()


def test_steps_per_epoch_caps_the_batches():
    assert EpochIterator(np.zeros((100, 1)), batch_size=10,
                         steps_per_epoch=3).num_batches == 3


def test_dict_and_list_inputs_are_batched_alike():
    x = {"a": np.arange(6), "b": np.arange(6) * 10}
    batch = _epoch(EpochIterator(x, [np.arange(6), np.ones(6)], batch_size=4))[0]
    assert batch[0]["b"].tolist() == [0, 10, 20, 30]
    assert [a.tolist() for a in batch[1]] == [[0, 1, 2, 3], [1, 1, 1, 1]]


def test_cardinality_mismatch_raises_with_sizes():
    with pytest.raises(ValueError, match="'x' sizes: 4, 'y' sizes: 3"):
        check_data_cardinality(np.zeros((4, 2)), np.zeros(3))


def test_validation_split_takes_the_last_samples_like_keras():
    (train, val) = train_validation_split((np.arange(10), np.arange(10)), 0.3)
    assert train[0].tolist() == list(range(7)) and val[0].tolist() == [7, 8, 9]


@pytest.mark.parametrize("split", [0.0, 1.0, -0.1, 1.5])
def test_validation_split_out_of_range_raises(split):
    with pytest.raises(ValueError, match="between 0 and 1"):
        train_validation_split((np.arange(10),), split)


def test_validation_split_too_small_raises():
    with pytest.raises(ValueError, match="not sufficient to split"):
        train_validation_split((np.arange(1),), 0.5)


def test_class_weight_from_integer_and_one_hot_labels():
    weights = {0: 1.0, 1: 3.0}
    sparse = class_weight_to_sample_weights(np.array([0, 1, 1, 0]), weights)
    one_hot = class_weight_to_sample_weights(np.eye(2)[[0, 1, 1, 0]], weights)
    assert sparse.tolist() == one_hot.tolist() == [1.0, 3.0, 3.0, 1.0]


def test_class_weight_missing_a_class_raises():
    with pytest.raises(ValueError, match="must contain all classes"):
        class_weight_to_sample_weights(np.array([0, 2]), {0: 1.0})


def test_class_weight_becomes_sample_weight_in_batches():
    batch = _epoch(EpochIterator(np.zeros((3, 1)), np.array([0, 1, 1]),
                                 class_weight={0: 0.5, 1: 2.0}))[0]
    assert len(batch) == 3 and batch[2].tolist() == [0.5, 2.0, 2.0]


@pytest.mark.parametrize("data, expected", [
    (1, (1, None, None)), ((1,), (1, None, None)), ((1, 2), (1, 2, None)),
    ((1, 2, 3), (1, 2, 3)), ([1, 2], (1, 2, None)),
])
def test_unpack_x_y_sample_weight(data, expected):
    assert unpack_x_y_sample_weight(data) == expected


def test_unpack_too_many_parts_raises():
    with pytest.raises(ValueError, match=r"\(x, y, sample_weight\)"):
        unpack_x_y_sample_weight((1, 2, 3, 4))


def test_batch_size_must_be_a_positive_integer():
    with pytest.raises(ValueError, match="positive integer"):
        EpochIterator(np.zeros(3), batch_size=0)


def test_concatenate_batches_of_dicts_and_lists():
    joined = data_adapter_utils.concatenate_batches(
        [{"a": np.zeros((2, 1))}, {"a": np.ones((1, 1))}])
    assert joined["a"].ravel().tolist() == [0.0, 0.0, 1.0]
    pairs = data_adapter_utils.concatenate_batches([[np.zeros(1), np.ones(2)],
                                              [np.zeros(2), np.ones(1)]])
    assert [p.shape for p in pairs] == [(3,), (3,)]


def test_epoch_iterator_groups_batches_by_steps_per_execution():
    it = EpochIterator(np.arange(10), batch_size=2, steps_per_execution=2)
    items = [(begin, end, [b[0].tolist() for b in batches])
             for begin, end, batches in it]
    assert items == [(0, 1, [[0, 1], [2, 3]]), (2, 3, [[4, 5], [6, 7]]),
                     (4, 4, [[8, 9]])]
    assert it.num_batches == 5  # what the progress bar counts: batches


def test_epoch_iterator_peek_reads_shapes_without_taking_a_batch():
    def generator():
        for i in range(3):
            yield np.full((2, 1), i), np.zeros(2)

    it = EpochIterator(generator())
    assert it.peek()[0].shape == (2, 1)
    assert [int(b[0][0, 0]) for _, _, batches in it for b in batches] == [0, 1, 2]
    arrays = EpochIterator(np.arange(10), batch_size=4, shuffle=True)
    assert arrays.peek()[0].tolist() == [0, 1, 2, 3]  # no shuffle, no draw


def test_epoch_iterator_refuses_a_bad_steps_per_execution():
    with pytest.raises(ValueError, match="steps_per_execution"):
        EpochIterator(np.zeros(3), steps_per_execution=0)
