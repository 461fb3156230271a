"""Image files and arrays: ``load_img``, ``img_to_array``, ``array_to_img``,
``save_img`` (Keras 3: ``keras/src/utils/image_utils.py``).

They go through Pillow, an optional dependency (``pip install
kerasmini[image]``): it is imported when this module is, and this module only
when one of these names is first used, so ``import kerasmini`` never loads
it. Without Pillow each function raises an ``ImportError`` that says what to
install.

>>> img = array_to_img(np.array([[[0.0], [1.0]]]))   # 1x2 grey, scaled to 0-255
>>> img.mode, img.size
('L', (2, 1))
>>> img_to_array(img)[..., 0].tolist()
[[0.0, 255.0]]
"""

import io
import os
import pathlib
import warnings

import numpy as np

from kerasmini.api_export import keras_export
from kerasmini.backend import config, validation
from kerasmini.utils.errors import names_its_errors

try:
    from PIL import Image as pil_image
except ImportError:  # an optional dependency
    pil_image = None

INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")
COLOR_MODES = ("grayscale", "rgb", "rgba")
DATA_FORMATS = ("channels_last", "channels_first")


def require_pillow(function):
    """Raise a clear ``ImportError`` if Pillow is missing.

    >>> require_pillow("load_img")  # Pillow is installed here: nothing happens
    """
    if pil_image is None:
        raise ImportError(
            f"`{function}` requires Pillow (PIL), which is not installed. "
            "Install it with `pip install pillow` or `pip install kerasmini[image]`."
        )


def _data_format(data_format, owner):
    if data_format is None:
        return "channels_last"  # Keras's default image_data_format()
    return validation.check_choice(data_format, "data_format", DATA_FORMATS, owner=owner)


def _resampling(name):
    modes = getattr(pil_image, "Resampling", pil_image)
    return getattr(modes, name.upper())


@keras_export("kerasmini.utils.array_to_img")
@names_its_errors
def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A Pillow image from a 3-D array (height, width, 1/3/4 channels).

    With ``scale=True`` the values are stretched to 0-255 first (the minimum
    becomes 0, the maximum 255); otherwise they are cast to ``uint8`` as they
    are. One channel gives mode ``"L"`` (``"I"`` for values above 255),
    three ``"RGB"``, four ``"RGBA"``.

    >>> array_to_img(np.zeros((2, 2)))
    Traceback (most recent call last):
      ...
    ValueError: array_to_img: Expected image array to have rank 3 (single image). Got ...
    """
    require_pillow("array_to_img")
    data_format = _data_format(data_format, "array_to_img")
    dtype = config.floatx() if dtype is None else dtype
    try:
        x = np.asarray(x, dtype=dtype)
    except (ValueError, TypeError) as e:
        raise ValueError(f"array_to_img: argument `x` must be an array of numbers. "
                         f"Received: x of type {type(x).__name__} ({e})") from None
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single image). Got "
                         f"array with shape: {x.shape}")
    if data_format == "channels_first":  # (channels, h, w) -> (h, w, channels)
        x = np.moveaxis(x, 0, -1)
    if scale:  # the lowest value to 0, the highest to 255 (a flat image: all 0)
        shifted = x - np.min(x)
        span = np.max(shifted)
        x = (shifted / span if span != 0 else shifted) * 255
    channels = x.shape[2]
    if channels in (3, 4):
        return pil_image.fromarray(x.astype("uint8"), "RGB" if channels == 3 else "RGBA")
    if channels == 1:
        if np.max(x) > 255:  # 32-bit signed integer greyscale
            return pil_image.fromarray(x[:, :, 0].astype("int32"), "I")
        return pil_image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}. Expected 1, 3 or 4 "
                     f"channels. Received: x of shape {x.shape}")


@keras_export("kerasmini.utils.img_to_array")
@names_its_errors
def img_to_array(img, data_format=None, dtype=None):
    """A 3-D array (height, width, channels) from a Pillow image.

    >>> img_to_array("cat.png")
    Traceback (most recent call last):
      ...
    TypeError: img_to_array: argument `img` must be a PIL image (or an array). Received: ...
    """
    data_format = _data_format(data_format, "img_to_array")
    dtype = config.floatx() if dtype is None else dtype
    if isinstance(img, (str, bytes, os.PathLike)):
        raise TypeError("img_to_array: argument `img` must be a PIL image (or an "
                        f"array). Received: img={img!r} (of type "
                        f"{type(img).__name__}); use load_img(path) to read a file")
    try:
        x = np.asarray(img, dtype=dtype)
    except (ValueError, TypeError) as e:
        raise TypeError(f"img_to_array: argument `img` must be a PIL image. "
                        f"Received: {type(img).__name__} ({e})") from None
    if x.ndim == 2:
        x = x[None] if data_format == "channels_first" else x[:, :, None]
    elif x.ndim == 3:
        if data_format == "channels_first":
            x = x.transpose(2, 0, 1)
    else:
        raise ValueError(f"Unsupported image shape: {x.shape}. Expected a 2-D or 3-D "
                         f"image. Received: img of type {type(img).__name__}")
    return x


@keras_export("kerasmini.utils.save_img")
@names_its_errors
def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Write the array ``x`` as an image file (format from the extension, or
    ``file_format``; extra keyword arguments go to ``PIL.Image.save``). An
    RGBA image saved as JPEG is converted to RGB, with a warning.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "grey.png")
    >>> save_img(path, np.ones((2, 3, 1)) * 255, scale=False)
    >>> load_img(path, color_mode="grayscale").size
    (3, 2)
    """
    require_pillow("save_img")
    data_format = _data_format(data_format, "save_img")
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower() or None
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("The JPEG format does not support RGBA images, converting to "
                      "RGB.", stacklevel=2)
        img = img.convert("RGB")
    try:
        img.save(path, format=file_format, **kwargs)
    except (KeyError, ValueError) as e:
        raise ValueError(f"save_img: Pillow cannot write the format {file_format!r}. "
                         f"Received: path={path!r}, file_format={file_format!r} ({e})"
                         ) from None


def _open(path):
    if isinstance(path, io.BytesIO):
        return pil_image.open(path)
    if isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as f:  # read whole: the file is closed at once
            return pil_image.open(io.BytesIO(f.read()))
    raise TypeError(f"load_img: path should be path-like or io.BytesIO, not "
                    f"{type(path)}. Received: path={path!r}")


def convert_color(img, color_mode):
    """``img`` in the mode ``color_mode`` asks for (greyscale keeps 16- and
    32-bit greyscale images as they are, as Keras does).

    >>> convert_color(pil_image.new("RGB", (2, 2)), "grayscale").mode
    'L'
    """
    if color_mode == "grayscale":
        return img if img.mode in ("L", "I;16", "I") else img.convert("L")
    wanted = "RGBA" if color_mode == "rgba" else "RGB"
    return img if img.mode == wanted else img.convert(wanted)


@keras_export("kerasmini.utils.load_img")
@names_its_errors
def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest",
             keep_aspect_ratio=False):
    """Read an image file into a Pillow image.

    Args:
        path: a path or an ``io.BytesIO``.
        color_mode: ``"grayscale"``, ``"rgb"`` or ``"rgba"``.
        target_size: ``(height, width)`` to resize to, or None.
        interpolation: Pillow's resampling: ``"nearest"``, ``"bilinear"``,
            ``"bicubic"``, ``"hamming"``, ``"box"``, ``"lanczos"``.
        keep_aspect_ratio: crop the centre to the target's aspect ratio
            before resizing.

    >>> load_img(io.BytesIO(b"not an image"))
    Traceback (most recent call last):
      ...
    ValueError: load_img: cannot identify the image in the io.BytesIO. Received: a file of 12 bytes
    """
    require_pillow("load_img")
    if color_mode not in COLOR_MODES:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba". '
                         f"Received: color_mode={color_mode!r}")
    if target_size is not None:
        if not isinstance(target_size, (tuple, list)) or len(target_size) != 2 or \
                not all(validation.is_int(s) and s > 0 for s in target_size):
            raise ValueError("load_img: argument `target_size` must be None or a pair "
                             "of positive integers (height, width). Received: "
                             f"target_size={target_size!r}")
    try:
        img = _open(path)
        img.load()
    except pil_image.UnidentifiedImageError:
        if isinstance(path, io.BytesIO):
            where, size = "the io.BytesIO", path.getbuffer().nbytes
        else:
            where, size = repr(os.fspath(path)), os.path.getsize(path)
        raise ValueError(f"load_img: cannot identify the image in {where}. "
                         f"Received: a file of {size} bytes") from None
    img = convert_color(img, color_mode)
    if target_size is None:
        return img
    size = (target_size[1], target_size[0])  # Pillow counts width first
    if img.size == size:
        return img
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"Invalid interpolation method {interpolation} specified. "
                         f"Supported methods are {', '.join(INTERPOLATIONS)}. "
                         f"Received: interpolation={interpolation!r}")
    resample = _resampling(interpolation)
    if not keep_aspect_ratio:
        return img.resize(size, resample)
    width, height = img.size
    crop_h = min(height, (width * size[1]) // size[0])
    crop_w = min(width, (height * size[0]) // size[1])
    top, left = (height - crop_h) // 2, (width - crop_w) // 2
    return img.resize(size, resample, box=[left, top, left + crop_w, top + crop_h])


__all__ = ["array_to_img", "img_to_array", "load_img", "save_img"]
