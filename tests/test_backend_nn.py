"""Forward values, shapes and errors of ``backend/nn.py`` (gradients are checked
in ``test_backend_ops.py``), against plain-loop NumPy references."""

import time

import numpy as np
import pytest

from kerasmini.backend import GradientTape, nn


def same_pads(size, window, stride, dilation=1):
    """TensorFlow's "same" padding along one axis: (output, before, after)."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (window - 1) * dilation + 1 - size, 0)
    return out, total // 2, total - total // 2


def reference_conv2d(x, kernel, stride, padding, dilation):
    """Convolution written with one loop per output pixel and kernel tap."""
    n, h, w, _ = x.shape
    kh, kw, _, f = kernel.shape
    if padding == "same":
        oh, top, bottom = same_pads(h, kh, stride, dilation)
        ow, left, right = same_pads(w, kw, stride, dilation)
        x = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))
    else:
        oh = (h - (kh - 1) * dilation - 1) // stride + 1
        ow = (w - (kw - 1) * dilation - 1) // stride + 1
    out = np.zeros((n, oh, ow, f))
    for a in range(oh):
        for b in range(ow):
            for i in range(kh):
                for j in range(kw):
                    pixel = x[:, a * stride + i * dilation, b * stride + j * dilation]
                    out[:, a, b] += pixel @ kernel[i, j]  # (n, c) @ (c, f)
    return out


def reference_pool(x, size, stride, padding, reduce):
    """Pooling over the real (unpadded) elements of each window."""
    n, h, w, c = x.shape
    if padding == "same":
        oh, top, _ = same_pads(h, size, stride)
        ow, left, _ = same_pads(w, size, stride)
    else:
        oh, ow, top, left = (h - size) // stride + 1, (w - size) // stride + 1, 0, 0
    out = np.zeros((n, oh, ow, c))
    for a in range(oh):
        for b in range(ow):
            r0, c0 = a * stride - top, b * stride - left
            window = x[:, max(r0, 0) : r0 + size, max(c0, 0) : c0 + size]
            out[:, a, b] = reduce(window, axis=(1, 2))
    return out


@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("stride,dilation", [(1, 1), (2, 1), (3, 1), (1, 2)])
def test_conv2d_matches_a_loop_reference(padding, stride, dilation):
    rng = np.random.default_rng(0)
    x, kernel = rng.normal(size=(2, 7, 8, 3)), rng.normal(size=(3, 2, 3, 4))
    np.testing.assert_allclose(
        nn.conv2d(x, kernel, stride, padding, dilation),
        reference_conv2d(x, kernel, stride, padding, dilation),
        rtol=1e-10,
        atol=1e-12,
    )


@pytest.mark.parametrize(
    "size,kernel,stride,expected",
    [
        (5, 3, 2, (3, 1, 1)),
        (6, 3, 2, (3, 0, 1)),
        (4, 1, 3, (2, 0, 0)),
        (7, 4, 1, (7, 1, 2)),
    ],
)
def test_conv2d_same_padding_puts_the_extra_row_after(size, kernel, stride, expected):
    assert same_pads(size, kernel, stride) == expected
    out_size, top, _ = expected
    x = np.zeros((1, size, size, 1))
    x[0, 0, 0, 0] = 1.0  # the first output sees it through kernel tap (top, top)
    taps = np.arange(1.0, kernel * kernel + 1).reshape(kernel, kernel, 1, 1)
    out = nn.conv2d(x, taps, stride, "same")
    assert out.shape == (1, out_size, out_size, 1)
    assert out[0, 0, 0, 0] == taps[top, top, 0, 0]


def test_conv2d_keeps_float32():
    x, kernel = np.ones((1, 4, 4, 2), "float32"), np.ones((3, 3, 2, 5), "float32")
    assert nn.conv2d(x, kernel, padding="same").dtype == np.float32


def test_conv2d_rejects_mismatched_channels():
    with pytest.raises(ValueError, match=r"kernel.shape=\(3, 3, 2, 4\)"):
        nn.conv2d(np.ones((1, 5, 5, 3)), np.ones((3, 3, 2, 4)))


def test_conv2d_rejects_inputs_that_are_not_rank_4():
    with pytest.raises(ValueError, match=r"Received: x.shape=\(5, 5, 3\)"):
        nn.conv2d(np.ones((5, 5, 3)), np.ones((3, 3, 3, 4)))


def test_conv2d_rejects_a_window_larger_than_a_valid_input():
    with pytest.raises(ValueError, match="does not fit"):
        nn.conv2d(np.ones((1, 2, 2, 1)), np.ones((3, 3, 1, 1)))


def test_conv2d_rejects_unknown_padding_and_bad_strides():
    with pytest.raises(ValueError, match="Received: padding='full'"):
        nn.conv2d(np.ones((1, 4, 4, 1)), np.ones((3, 3, 1, 1)), padding="full")
    with pytest.raises(ValueError, match="Received: strides=0"):
        nn.conv2d(np.ones((1, 4, 4, 1)), np.ones((3, 3, 1, 1)), strides=0)


@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("size,stride", [(2, 2), (3, 1), (3, 2)])
def test_pooling_matches_a_loop_reference(padding, size, stride):
    x = np.random.default_rng(1).normal(size=(2, 7, 5, 3))
    np.testing.assert_allclose(
        nn.max_pool2d(x, size, stride, padding),
        reference_pool(x, size, stride, padding, np.max),
    )
    np.testing.assert_allclose(
        nn.avg_pool2d(x, size, stride, padding),
        reference_pool(x, size, stride, padding, np.mean),
    )


def test_pooling_strides_default_to_the_pool_size():
    assert nn.max_pool2d(np.ones((1, 6, 6, 2)), 3).shape == (1, 2, 2, 2)
    assert nn.avg_pool2d(np.ones((1, 6, 6, 2)), (2, 3)).shape == (1, 3, 2, 2)


def test_max_pool2d_same_padding_never_picks_the_padding():
    x = -np.ones((1, 3, 3, 1))  # zero padding would win every border window
    np.testing.assert_array_equal(
        nn.max_pool2d(x, 2, 2, "same"), -np.ones((1, 2, 2, 1))
    )


def test_avg_pool2d_same_padding_averages_real_elements_only():
    x = np.ones((1, 3, 3, 1))  # counting the padding would give 0.25 in the corner
    np.testing.assert_array_equal(nn.avg_pool2d(x, 2, 2, "same"), np.ones((1, 2, 2, 1)))


def test_max_pool2d_gradient_goes_to_one_element_on_ties():
    x = np.ones((1, 4, 4, 1))
    with GradientTape() as tape:
        tape.watch(x)
        y = nn.max_pool2d(x, 2)
    grad = tape.gradient(y, x)[0, :, :, 0]
    expected = np.zeros((4, 4))
    expected[::2, ::2] = 1.0  # the first element of each window, in row-major order
    np.testing.assert_array_equal(grad, expected)


def test_max_pool2d_gradient_adds_up_where_windows_overlap():
    x = np.zeros((1, 3, 3, 1))
    x[0, 1, 1, 0] = 5.0  # the maximum of all four overlapping windows
    with GradientTape() as tape:
        tape.watch(x)
        y = nn.max_pool2d(x, 2, 1)
    assert tape.gradient(y, x)[0, 1, 1, 0] == 4.0


def test_conv2d_forward_and_backward_take_well_under_ten_milliseconds():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(32, 8, 8, 1)).astype("float32")
    kernel = rng.normal(size=(3, 3, 1, 16)).astype("float32")
    timings = []
    for _ in range(20):
        start = time.perf_counter()
        with GradientTape() as tape:
            tape.watch([x, kernel])
            y = nn.conv2d(x, kernel, padding="same")
        tape.gradient(y, [x, kernel])
        timings.append(time.perf_counter() - start)
    assert np.median(timings) < 0.01  # about 0.4 ms on a laptop
