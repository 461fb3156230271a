"""model.summary(): Keras 3's table, figures and byte sizes."""

import numpy as np

import kerasmini as keras
from kerasmini import layers
from kerasmini.utils.summary import is_sequential_like, readable_memory_size

ISSUE_SUMMARY = """\
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense (Dense)                        │ (None, 10)                  │             110 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_1 (Dense)                      │ (None, 1)                   │              11 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 121 (484.00 B)
 Trainable params: 121 (484.00 B)
 Non-trainable params: 0 (0.00 B)"""


def _lines(model, **kwargs):
    lines = []
    model.summary(print_fn=lines.append, **kwargs)
    return lines


def _issue_model():
    model = keras.Sequential()
    model.add(keras.layers.Dense(input_shape=(10,), units=10, activation="relu"))
    model.add(keras.layers.Dense(units=1))
    return model


def _shared_model():
    a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
    shared = layers.Dense(3, name="shared")
    merged = layers.Concatenate(name="concat")([shared(a), shared(b)])
    return keras.Model([a, b], layers.Dense(1, name="out")(merged))


def test_summary_issue_example_exact(capsys):
    _issue_model().summary()
    assert capsys.readouterr().out.rstrip("\n") == ISSUE_SUMMARY


# The columns' text widths Keras 3.15.1 prints (its table is drawn by rich
# 15, which takes the borders' width back evenly from the columns Keras asks
# for), read from real Keras with an explicit `line_length`.
KERAS_COLUMN_WIDTHS = {
    ("sequential", 60): [24, 17, 9], ("sequential", 72): [29, 21, 12],
    ("sequential", 88): [36, 27, 15], ("sequential", 100): [42, 31, 17],
    ("sequential", 83): [34, 25, 14],
    ("functional", 90): [24, 20, 12, 21], ("functional", 108): [29, 25, 15, 26],
}


def _column_widths(lines):
    return [len(cell) - 2 for cell in lines[1][1:-1].split("┳")]


def test_summary_column_widths_are_keras():
    models = {"sequential": _issue_model(), "functional": _shared_model()}
    for (kind, length), widths in KERAS_COLUMN_WIDTHS.items():
        lines = _lines(models[kind], line_length=length)
        assert _column_widths(lines) == widths, (kind, length)
        assert {len(line) for line in lines[1:8]} == {length}


def test_summary_sequential_width_is_88():
    assert {len(line) for line in _lines(_issue_model())[1:8]} == {88}


def test_summary_functional_lists_input_layer_rows():
    x = keras.Input((5,))
    model = keras.Model(x, layers.Dense(3)(x))
    rows = [line for line in _lines(model) if line.startswith("│")]
    assert rows[0].startswith("│ input_layer (InputLayer)")
    assert "(None, 5)" in rows[0] and rows[0].split("│")[3].strip() == "0"
    assert rows[1].split("│")[3].strip() == "18"
    assert _lines(model)[0] == 'Model: "functional"'
    assert _lines(model)[-3:] == [" Total params: 18 (72.00 B)",
                                  " Trainable params: 18 (72.00 B)",
                                  " Non-trainable params: 0 (0.00 B)"]


def test_summary_chain_functional_has_no_connected_to():
    x = keras.Input((5,))
    model = keras.Model(x, layers.Dense(3)(x))
    assert "Connected to" not in _lines(model)[2]


def test_summary_graph_has_connected_to_column_width_108():
    lines = _lines(_shared_model())
    assert "Connected to" in lines[2]
    assert {len(line) for line in lines[1:-3]} == {108}


def test_summary_connected_to_entries():
    text = "\n".join(_lines(_shared_model()))
    row = next(line for line in text.splitlines() if line.startswith("│ concat "))
    assert "shared[0][0], shared[1][0]" in row
    a_row = next(line for line in text.splitlines() if line.startswith("│ a (InputLayer)"))
    assert a_row.rstrip("│ ").endswith("-")
    shared_row = next(line for line in text.splitlines() if line.startswith("│ shared "))
    assert "a[0][0], b[0][0]" in shared_row and "15" in shared_row


def test_summary_shared_model_totals():
    assert _lines(_shared_model())[-3] == " Total params: 22 (88.00 B)"


def test_summary_long_connected_to_wraps():
    inputs = [keras.Input((1,), name=f"input_number_{i}") for i in range(4)]
    model = keras.Model(inputs, layers.Concatenate()(inputs))
    lines = _lines(model)
    concat_rows = [line for line in lines if line.startswith("│")
                   and "InputLayer" not in line and "input_number" in line.split("│")[4]]
    assert len(concat_rows) >= 2  # one cell, several lines
    assert {len(line) for line in lines[1:-3]} == {108}


def test_summary_non_trainable_params_and_thousands_separator():
    model = keras.Sequential([layers.Dense(1000, input_shape=(100,)),
                              layers.Dense(10, trainable=False)])
    lines = _lines(model)
    assert "101,000" in "\n".join(lines)
    assert lines[-3:] == [" Total params: 111,010 (433.63 KB)",
                          " Trainable params: 101,000 (394.53 KB)",
                          " Non-trainable params: 10,010 (39.10 KB)"]


def test_summary_float64_bytes():
    model = keras.Sequential([layers.Dense(2, input_shape=(3,), dtype="float64")])
    assert _lines(model)[-3] == " Total params: 8 (64.00 B)"


def test_summary_unbuilt_sequential_shows_question_marks():
    model = keras.Sequential([layers.Dense(2, name="later")])
    row = next(line for line in _lines(model) if line.startswith("│ later"))
    assert "?" in row and "0 (unbuilt)" in row


def test_summary_nested_model_row():
    inner = keras.Sequential([layers.Dense(2, input_shape=(3,))], name="inner")
    x = keras.Input((3,))
    model = keras.Model(x, layers.Dense(1)(inner(x)))
    row = next(line for line in _lines(model) if line.startswith("│ inner"))
    assert "inner (Sequential)" in row and "(None, 2)" in row and row.split("│")[3].strip() == "8"


def test_summary_subclassed_model_after_call():
    class Two(keras.Model):
        def __init__(self):
            super().__init__()
            self.a = layers.Dense(4)
            self.b = layers.Dense(1)

        def call(self, x):
            return self.b(self.a(x))

    model = Two()
    model(np.ones((1, 3)))
    lines = _lines(model)
    assert lines[0] == 'Model: "two"'
    assert lines[-3] == " Total params: 21 (84.00 B)"


def test_summary_line_length_respected():
    assert {len(line) for line in _lines(_issue_model(), line_length=60)[1:8]} == {60}


def test_summary_show_trainable_column():
    model = keras.Sequential([layers.Dense(2, input_shape=(3,)),
                              layers.Dense(1, trainable=False)])
    lines = _lines(model, show_trainable=True)
    assert {len(line) for line in lines[1:-3]} == {100}  # 88 + 12, as Keras 3
    header = "".join(line.split("┃")[4].strip() for line in lines if line.startswith("┃"))
    assert header == "Trainable"
    rows = [line for line in lines if line.startswith("│")]
    assert [row.split("│")[4].strip() for row in rows] == ["Y", "N"]


def test_is_sequential_like():
    x = keras.Input((2,))
    chain = keras.Model(x, layers.Dense(1)(x))
    assert is_sequential_like(chain) and is_sequential_like(_issue_model())
    assert not is_sequential_like(_shared_model())


def test_readable_memory_size_units():
    assert [readable_memory_size(n) for n in (0, 484, 1536, 3 * 1024 ** 2)] == [
        "0.00 B", "484.00 B", "1.50 KB", "3.00 MB"]


# A subclassed model's summary before and after its first call, as Keras
# 3.15.1 prints it (the same code run by real Keras): its layers are listed
# from the start, unbuilt with `?` shapes; after a call, the shapes of that
# call (batch size included), and `?` for the pooling layer, which is built
# from the start and so never records a shape.
SUBCLASSED_BEFORE = """\
│ conv2d (Conv2D)               │ ?                     │  0 (unbuilt) │
│ max_pooling2d (MaxPooling2D)  │ ?                     │            0 │
│ flatten (Flatten)             │ ?                     │  0 (unbuilt) │
│ dense (Dense)                 │ ?                     │  0 (unbuilt) │"""
SUBCLASSED_AFTER = """\
│ conv2d (Conv2D)               │ (1, 6, 6, 16)         │          160 │
│ max_pooling2d (MaxPooling2D)  │ ?                     │            0 │
│ flatten (Flatten)             │ (1, 144)              │            0 │
│ dense (Dense)                 │ (1, 10)               │        1,450 │"""


def test_subclassed_summary_before_and_after_a_call_is_keras():
    keras.backend.clear_session()

    class DigitNet(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.conv = layers.Conv2D(16, 3, activation="relu")
            self.pool = layers.MaxPooling2D(2)
            self.flatten = layers.Flatten()
            self.classes = layers.Dense(10, activation="softmax")

        def call(self, x):
            return self.classes(self.flatten(self.pool(self.conv(x))))

    def rows(model):
        return "\n".join(line for line in _lines(model, line_length=72)
                         if line.startswith("│"))

    net = DigitNet(name="digit_net")
    assert rows(net) == SUBCLASSED_BEFORE
    net(np.zeros((1, 8, 8, 1), dtype="float32"))
    assert rows(net) == SUBCLASSED_AFTER
