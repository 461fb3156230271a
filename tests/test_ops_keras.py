"""The ops issue 24 added give real Keras 3.15.1's numbers, shapes and dtypes.

The scenarios below are written once and run twice: here with kerasmini,
and by real Keras in a subprocess (the interpreter named by
``KERASMINI_REAL_KERAS_PYTHON``, as ``make interop`` sets it; without it the
tests are skipped), with the torch backend. Both sides compute on the same
seeded NumPy inputs; every value must agree to 1e-5, and every symbolic
shape and dtype (the ops called on ``keras.KerasTensor``) exactly.

Keras's torch backend has no Lanczos resizing; its NumPy backend has (the
JAX algorithm), but importing it needs JAX. The Keras side loads that one
module's source with its single import of the NumPy backend's core replaced
by ``np.asarray``, and runs it on the same images.
"""

import os
import textwrap

import keras_worker
import numpy as np
import pytest

import kerasmini as keras

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")
needs_keras = pytest.mark.skipif(
    KERAS_PYTHON is None, reason="KERASMINI_REAL_KERAS_PYTHON is unset")

SCENARIOS = textwrap.dedent('''
    ops = keras.ops
    RNG = np.random.default_rng(0)
    IMG = RNG.normal(size=(2, 7, 9, 3)).astype("float32")
    BYTES = RNG.integers(0, 256, size=(5, 6, 2)).astype("uint8")
    A = RNG.normal(size=(3, 4)).astype("float32")
    B = RNG.normal(size=(4, 5)).astype("float32")
    T3 = RNG.normal(size=(2, 3, 4)).astype("float32")
    U = np.tanh(A) * 0.9
    SIZES = [(4, 5), (13, 11), (7, 3), (2, 18)]

    def numpy(x):
        return np.asarray(keras.ops.convert_to_numpy(x))

    def resize():
        out = {}
        for method in ("bilinear", "nearest", "bicubic"):
            for antialias in (False, True):
                for size in SIZES:
                    key = f"{method}/{antialias}/{size}"
                    out[key] = ops.image.resize(IMG, size, interpolation=method,
                                                antialias=antialias)
        out["crop"] = ops.image.resize(IMG, (4, 4), crop_to_aspect_ratio=True)
        out["crop_tall"] = ops.image.resize(IMG, (8, 3), crop_to_aspect_ratio=True)
        out["pad"] = ops.image.resize(IMG, (4, 4), pad_to_aspect_ratio=True,
                                      fill_value=0.5)
        out["pad_wide"] = ops.image.resize(IMG, (2, 9), pad_to_aspect_ratio=True)
        out["channels_first"] = ops.image.resize(
            np.transpose(IMG, (0, 3, 1, 2)), (5, 4), data_format="channels_first")
        out["single"] = ops.image.resize(IMG[0], (3, 12), interpolation="bicubic")
        out["uint8"] = ops.image.resize(BYTES, (9, 4))
        out["uint8_bicubic"] = ops.image.resize(BYTES, (3, 11),
                                                interpolation="bicubic")
        return out

    def patches():
        out = {}
        out["plain"] = ops.image.extract_patches(IMG, 3)
        out["rect"] = ops.image.extract_patches(IMG, (2, 3), strides=(1, 2))
        out["same"] = ops.image.extract_patches(IMG, (3, 2), strides=2,
                                                padding="same")
        out["dilated"] = ops.image.extract_patches(IMG, 2, strides=1,
                                                   dilation_rate=2)
        out["single"] = ops.image.extract_patches(IMG[1], 2)
        out["channels_first"] = ops.image.extract_patches(
            np.transpose(IMG, (0, 3, 1, 2)), 3, data_format="channels_first")
        return out

    def numpy_ops():
        out = {}
        out["tensordot_2"] = ops.tensordot(T3, RNG.normal(size=(3, 4, 2)).astype(
            "float32"), axes=2)
        out["tensordot_pairs"] = ops.tensordot(T3, B, axes=([2], [0]))
        out["tensordot_0"] = ops.tensordot(A[:2, :2], B[:2, :2], axes=0)
        # (no N-D ops.dot: Keras's torch backend runs torch.matmul there, not the
        # np.dot its shape rule states; kerasmini follows the rule)
        out["dot_matrix"] = ops.dot(A, B)
        out["split_3"] = ops.split(IMG, 3, axis=2)
        out["split_at"] = ops.split(A, [1, 3], axis=1)
        out["repeat"] = ops.repeat(A, 3, axis=0)
        out["repeat_counts"] = ops.repeat(A, np.array([2, 0, 1, 3]), axis=1)
        out["repeat_flat"] = ops.repeat(A, 2)
        out["roll"] = ops.roll(A, 2, axis=1)
        out["roll_flat"] = ops.roll(A, -5)
        out["roll_axes"] = ops.roll(T3, (1, -1), axis=(0, 2))
        out["meshgrid_xy"] = ops.meshgrid(A[0], B[0])
        out["meshgrid_ij"] = ops.meshgrid(A[0], B[0], A[1, :2], indexing="ij")
        out["arccos"] = ops.arccos(U)
        out["arcsin"] = ops.arcsin(U)
        out["arctan"] = ops.arctan(A)
        out["arcsinh"] = ops.arcsinh(A)
        out["arccosh"] = ops.arccosh(np.abs(A) + 1)
        out["arctanh"] = ops.arctanh(U)
        out["ceil"] = ops.ceil(A * 3)
        out["ceil_int"] = ops.ceil(np.array([[1, -2]], "int32"))
        # (not "symmetric": Keras's torch backend pads with copies of the edge
        # there; kerasmini mirrors as NumPy does, tested in tests/test_ops.py)
        for mode in ("constant", "reflect", "circular"):
            out[f"pad_{mode}"] = ops.pad(A, ((1, 2), (2, 1)), mode=mode)
        out["pad_value"] = ops.pad(A, ((1, 0), (0, 3)), constant_values=2.5)
        out["cumsum"] = ops.cumsum(A, axis=1)
        out["cumsum_float"] = ops.cumsum(np.array([[1, 2], [3, 4]], "int32"), axis=0,
                                         dtype="float32")
        out["cumsum_bool"] = ops.cumsum(A > 0)
        return out

    def core_and_math():
        out = {}
        out["slice"] = ops.slice(IMG, [1, 2, 3, 0], (1, 4, 5, 2))
        out["slice_tensor"] = ops.slice(A, np.array([1, 1]), (2, 3))
        out["unstack"] = ops.unstack(ops.convert_to_tensor(T3), axis=1)
        out["unstack_0"] = ops.unstack(ops.convert_to_tensor(A))
        values, indices = ops.top_k(A, 3)
        out["top_k_values"], out["top_k_indices"] = values, indices
        real, imag = ops.fft2((T3, T3[::-1]))
        out["fft2_real"], out["fft2_imag"] = real, imag
        out["erf"] = ops.erf(A * 2)
        out["gelu_exact"] = ops.gelu(A * 2, approximate=False)
        out["gelu_approximate"] = ops.gelu(A * 2)
        out["activation_gelu"] = keras.activations.gelu(A * 2)
        out["activation_gelu_approximate"] = keras.activations.gelu(A * 2,
                                                                    approximate=True)
        return out

    def symbolic():
        """The shapes and dtypes of calls on KerasTensors (-1: unknown)."""
        kt = keras.KerasTensor
        calls = {
            "resize": lambda: ops.image.resize(kt((None, 7, 9, 3)), (4, 5)),
            "resize_uint8": lambda: ops.image.resize(kt((5, 6, 2), "uint8"), (9, 4)),
            "resize_cf": lambda: ops.image.resize(kt((None, 3, 7, 9)), (4, 5),
                                                  data_format="channels_first"),
            "patches": lambda: ops.image.extract_patches(kt((None, 7, 9, 3)), 3),
            "patches_same": lambda: ops.image.extract_patches(
                kt((7, 9, 3)), (3, 2), strides=2, padding="same"),
            "tensordot": lambda: ops.tensordot(kt((None, 3, 4)), kt((4, 5)), axes=1),
            "dot": lambda: ops.dot(kt((2, 3, 4)), kt((5, 4, 6))),
            "split": lambda: ops.split(kt((None, 6)), 3, axis=1),
            "split_at": lambda: ops.split(kt((None, 6)), [1, 4], axis=1),
            "repeat": lambda: ops.repeat(kt((None, 3)), 2, axis=1),
            "repeat_counts": lambda: ops.repeat(kt((2, 3), "int32"), [1, 2, 3], axis=1),
            "roll": lambda: ops.roll(kt((None, 3)), 1, axis=1),
            "slice": lambda: ops.slice(kt((4, 5)), [1, 2], (2, 3)),
            "unstack": lambda: ops.unstack(kt((None, 3)), axis=1),
            "top_k": lambda: ops.top_k(kt((None, 6)), 2),
            "meshgrid": lambda: ops.meshgrid(kt((3,)), kt((4,))),
            "fft2": lambda: ops.fft2((kt((None, 4, 5)), kt((None, 4, 5)))),
            "arccos_int": lambda: ops.arccos(kt((2,), "int32")),
            "ceil_int": lambda: ops.ceil(kt((2,), "int32")),
            "cumsum_bool": lambda: ops.cumsum(kt((2, 3), "bool"), axis=1),
            "cumsum_dtype": lambda: ops.cumsum(kt((2, 3), "int32"), dtype="float32"),
            "pad": lambda: ops.pad(kt((None, 3)), ((0, 0), (1, 2)), mode="reflect"),
            "gelu": lambda: ops.gelu(kt((None, 3)), approximate=False),
            "erf": lambda: ops.erf(kt((None, 3))),
        }
        out = {}
        for name, call in calls.items():
            result = call()
            for i, spec in enumerate(result if isinstance(result, (list, tuple))
                                     else [result]):
                shape = [-1 if d is None else d for d in spec.shape]
                out[f"{name}#{i}"] = (shape, str(spec.dtype))
        return out

    SCENARIOS = {f.__name__: f for f in (resize, patches, numpy_ops, core_and_math)}

    def flat(result):
        out = {}
        for key, value in result.items():
            values = value if isinstance(value, (list, tuple)) else [value]
            for i, v in enumerate(values):
                array = numpy(v)
                out[f"{key}#{i}"] = array
                out[f"{key}#{i}:dtype"] = np.array(str(array.dtype))
        return out
''')

LANCZOS = textwrap.dedent('''
    def lanczos():
        """Keras's NumPy-backend resize, loaded without its JAX import."""
        import importlib.util
        import pathlib
        import types
        path = pathlib.Path(importlib.util.find_spec("keras").origin).parent / \\
            "src" / "backend" / "numpy" / "image.py"
        source = path.read_text().replace(
            "from keras.src.backend.numpy.core import convert_to_tensor",
            "convert_to_tensor = np.asarray")
        module = types.ModuleType("keras_numpy_image")
        exec(compile(source, str(path), "exec"), module.__dict__)
        out = {}
        for method in ("lanczos3", "lanczos5"):
            for antialias in (False, True):
                for size in SIZES:
                    out[f"{method}/{antialias}/{size}"] = module.resize(
                        IMG, size, interpolation=method, antialias=antialias,
                        data_format="channels_last")
        return out
''')

MINE_LANCZOS = textwrap.dedent('''
    def lanczos():
        out = {}
        for method in ("lanczos3", "lanczos5"):
            for antialias in (False, True):
                for size in SIZES:
                    out[f"{method}/{antialias}/{size}"] = ops.image.resize(
                        IMG, size, interpolation=method, antialias=antialias)
        return out
''')

KERAS_SIDE = textwrap.dedent('''
    import json
    import sys
    import numpy as np
    import keras
''') + SCENARIOS + LANCZOS + textwrap.dedent('''
    arrays = {}
    for name, scenario in {**SCENARIOS, "lanczos": lanczos}.items():
        for key, value in flat(scenario()).items():
            arrays[f"{name}:{key}"] = value
    np.savez(sys.argv[1], **arrays)
    with open(sys.argv[2], "w") as f:
        json.dump(symbolic(), f)
''')

# where Keras's torch backend disagrees with Keras's own shape rule, kerasmini
# follows the rule (checked in test_same_symbolic_shapes_and_dtypes_as_keras)
TORCH_DTYPES = {"core_and_math": {"top_k_indices#0:dtype": ("int64", "int32")}}

MINE = {"keras": keras, "np": np}
exec(SCENARIOS + MINE_LANCZOS, MINE)
ALL_SCENARIOS = {**MINE["SCENARIOS"], "lanczos": MINE["lanczos"]}


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ops_keras")
    arrays, specs = folder / "out.npz", folder / "specs.json"
    env = dict(os.environ, KERAS_BACKEND="torch")
    result = keras_worker.run(KERAS_PYTHON, KERAS_SIDE, arrays, specs, env=env,
                              timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    import json
    return dict(np.load(arrays)), json.loads(specs.read_text())


@needs_keras
@pytest.mark.parametrize("name", list(ALL_SCENARIOS))
def test_same_numbers_and_dtypes_as_keras(keras_results, name):
    mine = MINE["flat"](ALL_SCENARIOS[name]())
    theirs = {key.split(":", 1)[1]: value for key, value in keras_results[0].items()
              if key.startswith(name + ":")}
    assert sorted(mine) == sorted(theirs)
    for key, value in mine.items():
        if key.endswith(":dtype"):
            known = TORCH_DTYPES.get(name, {}).get(key)
            if known:
                assert (str(theirs[key]), str(value)) == known
            elif name != "lanczos":  # Keras's NumPy backend computes in float64
                assert str(value) == str(theirs[key]), f"{name}: {key}"
            continue
        assert value.shape == theirs[key].shape, f"{name}: {key}"
        np.testing.assert_allclose(value.astype("float64"),
                                   theirs[key].astype("float64"), rtol=1e-5,
                                   atol=1e-5, err_msg=f"{name}: {key}")


@needs_keras
def test_same_symbolic_shapes_and_dtypes_as_keras(keras_results):
    mine = MINE["symbolic"]()
    theirs = {key: tuple(value) for key, value in keras_results[1].items()}
    assert sorted(mine) == sorted(theirs)
    differ = {key: (mine[key], theirs[key]) for key in mine
              if (list(mine[key][0]), mine[key][1]) != (list(theirs[key][0]),
                                                         theirs[key][1])}
    assert not differ, differ


def test_the_scenarios_tell_the_methods_apart():
    """Each resize method and option changes the numbers (a scenario that
    silently ran bilinear everywhere would be caught here)."""
    got = MINE["resize"]()
    keys = [k for k in got if "/" in k and k.endswith("(4, 5)")]
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if a.split("/")[0] == b.split("/")[0] == "nearest":
                continue  # antialias does not apply to nearest
            assert not np.allclose(got[a], got[b]), (a, b)
    lanczos = MINE["lanczos"]()
    assert not np.allclose(lanczos["lanczos3/False/(4, 5)"],
                           lanczos["lanczos5/False/(4, 5)"])
