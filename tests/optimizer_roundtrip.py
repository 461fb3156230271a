"""The optimizer round-trip matrix, written once for both libraries.

``SOURCE`` is executed with ``keras`` bound to kerasmini (in the tests) or to
real Keras 3 (in the interop tests' subprocess), so both sides train, save
and continue the very same scenario: every optimizer kerasmini has (and the
variants that change its slots) x a state at saving time (compiled but never
trained, one step, several steps), loaded with or without ``compile``.
"""

import textwrap

SOURCE = textwrap.dedent('''
    OPTIMIZERS = {
        "adam": lambda: keras.optimizers.Adam(0.01),
        "adam_amsgrad": lambda: keras.optimizers.Adam(0.01, amsgrad=True),
        "adam_schedule": lambda: keras.optimizers.Adam(
            keras.optimizers.schedules.ExponentialDecay(0.01, 2, 0.5)),
        "sgd": lambda: keras.optimizers.SGD(0.05),
        "sgd_momentum": lambda: keras.optimizers.SGD(0.05, momentum=0.9,
                                                     nesterov=True),
        "rmsprop": lambda: keras.optimizers.RMSprop(0.01),
        "rmsprop_centered": lambda: keras.optimizers.RMSprop(
            0.01, momentum=0.5, centered=True),
        "adagrad": lambda: keras.optimizers.Adagrad(0.1),
        "adamw": lambda: keras.optimizers.AdamW(0.01, weight_decay=0.1),
        "adamw_polynomial": lambda: keras.optimizers.AdamW(
            keras.optimizers.schedules.PolynomialDecay(
                0.02, 5, end_learning_rate=0.001, power=2.0),
            amsgrad=True),
        "sgd_cosine_warmup": lambda: keras.optimizers.SGD(
            keras.optimizers.schedules.CosineDecay(
                0.0, 6, alpha=0.1, warmup_target=0.1, warmup_steps=2)),
        "rmsprop_cosine_restarts": lambda: keras.optimizers.RMSprop(
            keras.optimizers.schedules.CosineDecayRestarts(
                0.01, 2, t_mul=2.0, m_mul=0.5)),
    }
    STATES = {"untrained": 0, "one_step": 1, "trained": 6}  # steps before saving

    def data():
        rng = np.random.default_rng(0)
        return (rng.normal(size=(16, 4)).astype("float32"),
                rng.normal(size=(16, 3)).astype("float32"))

    def make_model():
        keras.utils.set_random_seed(0)
        return keras.Sequential([keras.Input((4,)),
                                 keras.layers.Dense(5, activation="tanh"),
                                 keras.layers.Dense(3)])

    def train(model, steps):
        x, y = data()
        if steps:
            model.fit(x[:8], y[:8], batch_size=8, epochs=steps, shuffle=False,
                      verbose=0)

    def trained(optimizer, state):
        model = make_model()
        model.compile(optimizer=OPTIMIZERS[optimizer](), loss="mse")
        train(model, STATES[state])
        return model

    def fresh_copy(model, optimizer):
        """The same weights, compiled with a new optimizer (what a file
        loaded with `compile=False` is compiled with again)."""
        copy = make_model()
        copy.set_weights(model.get_weights())
        copy.compile(optimizer=OPTIMIZERS[optimizer](), loss="mse")
        return copy

    def go_on(model):
        """Four more steps: two epochs of two batches."""
        x, y = data()
        model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)

    def state_of(model, prefix, out):
        for i, weight in enumerate(model.weights):
            out[f"{prefix}|w{i}"] = np.asarray(weight.numpy())
        optimizer = getattr(model, "optimizer", None)
        if optimizer is not None and getattr(model, "compiled", False):
            for i, variable in enumerate(optimizer.variables):
                out[f"{prefix}|opt{i}"] = np.asarray(variable.numpy())
        return out
''')

CASES = [(optimizer, state)
         for optimizer in ["adam", "adam_amsgrad", "adam_schedule", "sgd",
                           "sgd_momentum", "rmsprop", "rmsprop_centered", "adagrad",
                           "adamw", "adamw_polynomial", "sgd_cosine_warmup",
                           "rmsprop_cosine_restarts"]
         for state in ["untrained", "one_step", "trained"]]


def part(arrays, prefix, kind):
    """``[arrays[f"{prefix}|{kind}0"], ...]`` in order."""
    values = []
    while f"{prefix}|{kind}{len(values)}" in arrays:
        values.append(arrays[f"{prefix}|{kind}{len(values)}"])
    return values
