"""Checks of chapter 13's exercises (saving)."""

import io
import json
import os
import tempfile
import zipfile

import h5py
import numpy as np

import kerasmini as keras

from ._support import Mistake, exercise, expect, fail


@exercise("ch13-config", "Clip.get_config")
def check_clip_config(Clip):  # noqa: N803
    layer = Clip(low=-1.5, high=0.5, name="clip")
    config = layer.get_config()
    expect(isinstance(config, dict), f"get_config should return a dict, got "
           f"{type(config).__name__}")
    for key in ("name", "low", "high"):
        expect(key in config, (
            f"the config has no {key!r}: {sorted(config)}" +
            (": start from super().get_config()" if key == "name" else "")))
    try:
        twin = Clip.from_config(config)
    except TypeError as error:
        raise Mistake(f"Clip.from_config(config) fails ({error}): the config's keys "
                      "must be the arguments of Clip.__init__") from error
    expect((twin.low, twin.high, twin.name) == (-1.5, 0.5, "clip"), (
        f"from_config gave low={twin.low!r}, high={twin.high!r}, "
        f"name={twin.name!r}; expected low=-1.5, high=0.5, name='clip'"))
    values = np.array([[-3.0, 0.0, 3.0]], dtype="float32")
    expect(np.allclose(twin(values), [[-1.5, 0.0, 0.5]]), "the twin clips differently")

    keras.utils.set_random_seed(13)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, name="dense"),
                              Clip(low=-0.25, high=0.75, name="clip")])
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "clip.keras")
    try:
        model.save(path)
    except (TypeError, ValueError) as error:
        raise Mistake(f"a model with a Clip inside cannot be saved ({error}): the "
                      "config must be plain JSON values") from error
    try:
        loaded = keras.saving.load_model(path)
    except (TypeError, ValueError) as error:
        text = str(error)
        if "Could not locate class" in text:
            raise Mistake("the saved model does not load back: keep Clip "
                          "registered with @keras.saving.register_keras_serializable"
                          ) from error
        raise Mistake(f"the saved model does not load back ({text})") from error
    clip = loaded.layers[-1]
    expect(type(clip).__name__ == "Clip" and (clip.low, clip.high) == (-0.25, 0.75), (
        f"the loaded model's last layer is {clip!r} with low={getattr(clip, 'low', '?')}"
        f", high={getattr(clip, 'high', '?')}; expected a Clip(-0.25, 0.75)"))
    x = np.random.default_rng(13).normal(size=(4, 3)).astype("float32") * 3
    expect(np.allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0)), (
        "the loaded model predicts something else than the saved one"))


def _h5_datasets(group, prefix=""):
    """``(path, shape)`` of every dataset under an h5py group, walked by hand."""
    found = []
    for name in group:
        item = group[name]
        path = f"{prefix}{name}"
        if isinstance(item, h5py.Dataset):
            found.append((path, tuple(item.shape)))
        else:
            found += _h5_datasets(item, path + "/")
    return found


@exercise("ch13-weight-paths", "weight_paths")
def check_weight_paths(weight_paths):
    folder = tempfile.mkdtemp()
    keras.utils.set_random_seed(13)
    models = {
        "mlp.keras": keras.Sequential([keras.Input((4,)),
                                       keras.layers.Dense(8, activation="relu"),
                                       keras.layers.Dense(1)]),
        "conv.keras": keras.Sequential([keras.Input((6, 6, 1)),
                                        keras.layers.Conv2D(2, 3),
                                        keras.layers.Flatten(),
                                        keras.layers.Dense(3, use_bias=False)]),
    }
    for name, model in models.items():
        path = os.path.join(folder, name)
        model.save(path)
        with zipfile.ZipFile(path) as archive:
            data = archive.read("model.weights.h5")
        with h5py.File(io.BytesIO(data), "r") as h5file:
            expected = sorted(_h5_datasets(h5file))
        found = weight_paths(path)
        expect(isinstance(found, list), (
            f"expected a list, got {type(found).__name__}"))
        want, got = [p for p, _ in expected], [p for p, _ in found]
        if sorted(got) == want and got != want:
            fail(f"{name}: the paths are right but not sorted")
        if sorted(str(p).lstrip("/") for p in got) == want and got != want:
            fail(f"{name}: got {got[:2]}...: give the paths relative to the file, as "
                 "visititems names them ('layers/dense/vars/0', no leading '/')")
        extra = sorted(set(got) - set(want))
        if extra:
            fail(f"{name}: {extra} are not datasets (groups, or not in the weights "
                 "file): keep only h5py.Dataset objects")
        expect(got == want, f"{name}: expected the paths {want}, got {got}")
        expect([tuple(s) for _, s in found] == [s for _, s in expected], (
            f"{name}: the paths are right but some shapes are not"))


def _configs():
    """Configs with and without a Python lambda in them, and where."""
    plain = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    risky = keras.Sequential([keras.Input((3,)),
                              keras.layers.Lambda(lambda t: t * 2)])

    def as_saved(model):  # what config.json holds
        return json.loads(json.dumps(keras.saving.serialize_keras_object(model)))

    lam = {"class_name": "__lambda__", "config": {"code": "..."}}
    return [
        ("a plain model's config", as_saved(plain), False),
        ("a model with a Lambda layer", as_saved(risky), True),
        ("a lambda inside a list inside a dict", {"a": [1, {"b": [lam]}]}, True),
        ("a list of configs, the lambda last", [{"x": 1}, [[lam]]], True),
        ("a dict whose name (not class_name) is '__lambda__'",
         {"name": "__lambda__", "config": {"class_name": "Dense"}}, False),
        ("a Lambda layer class_name with no lambda in it",
         {"class_name": "Lambda", "config": {"function": "relu"}}, False),
        ("a string", "__lambda__", False),
    ]


@exercise("ch13-safe-config", "has_lambda")
def check_has_lambda(has_lambda):
    for what, config, expected in _configs():
        got = has_lambda(config)
        expect(got in (True, False), f"has_lambda returned {got!r} for {what}: return "
               "True or False")
        if expected:
            expect(got is True, f"{what}: has_lambda says {got}, expected True: look "
                   "inside every dict value and every list item, however deep")
        else:
            expect(got is False, f"{what}: has_lambda says {got}, expected False: "
                   "only a dict whose class_name is '__lambda__' counts")
