"""``BaseImagePreprocessingLayer``: the shape every image layer shares.

Keras 3 writes each image layer as two steps, and so does kerasmini:

1. ``get_random_transformation(images, training)`` draws what this call
   does (which images flip, by which angle each rotates...) from the layer's
   ``SeedGenerator``, or returns ``None`` at inference;
2. ``transform_images(images, transformation, training)`` applies it.

``call(images, training=True)`` runs one then the other. ``training``
defaults to ``True`` in the signature, as in Keras 3: called on its own, a
random layer transforms; inside a model it follows the model's call
(``fit`` passes ``True``; ``predict``, ``evaluate`` and ``model(x,
training=False)`` pass ``False``, and then the layer is the identity). The
two steps are public, so a test can hand Keras's own draw to kerasmini's
``transform_images`` and compare the pixels.

Images are ``(batch, height, width, channels)`` or one image without the
batch axis (``"channels_last"``), or channels first with
``data_format="channels_first"``; any other rank is refused. Keras's layers
also take a dict of images, bounding boxes, labels and segmentation masks:
kerasmini's take images only.

>>> layer = BaseImagePreprocessingLayer(factor=0.2)
>>> layer.factor, layer.data_format
((-0.2, 0.2), 'channels_last')
"""

import numpy as np

from kerasmini import ops
from kerasmini.backend import validation
from kerasmini.backend.keras_tensor import KerasTensor
from kerasmini.backend.preprocessing import affine_transform
from kerasmini.layers.preprocessing.data_layer import DataLayer

DATA_FORMATS = ("channels_last", "channels_first")


def standardize_data_format(data_format, owner):
    """``None`` -> ``"channels_last"`` (Keras's default
    ``image_data_format()``); anything but the two formats is refused.

    >>> standardize_data_format(None, "Resizing")
    'channels_last'
    """
    if data_format is None:
        return "channels_last"
    if isinstance(data_format, str):
        data_format = data_format.lower()
    return validation.check_choice(data_format, "data_format", DATA_FORMATS,
                                   owner=owner)


def check_size(value, name, owner):
    """A target ``height``/``width``: an integer >= 1.

    >>> check_size(0, "height", "Resizing")
    Traceback (most recent call last):
      ...
    ValueError: Resizing: argument `height` must be an integer >= 1. Received: height=0
    """
    return validation.check_int(value, name, minimum=1, owner=owner)


class BaseImagePreprocessingLayer(DataLayer):
    """Base class of the image layers (Keras 3's of the same name).

    Args:
        factor: for layers whose strength is one ``factor`` (a number ``f``
            for ``[-f, f]``, or a pair ``[lower, upper]``, inside
            ``_FACTOR_BOUNDS``); stored as the pair ``self.factor``.
        bounding_box_format: Keras's layers transform bounding boxes too;
            kerasmini's do not, and take only ``None``.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.

    >>> BaseImagePreprocessingLayer(factor=[0.3, -0.1]).factor
    (-0.1, 0.3)
    """

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS = (-1, 1)

    def __init__(self, factor=None, bounding_box_format=None, data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        owner = type(self).__name__
        if bounding_box_format is not None:
            raise ValueError(
                f"{owner}: kerasmini's image layers transform images only, not "
                "bounding boxes, so `bounding_box_format` must be None. "
                f"Received: bounding_box_format={bounding_box_format!r}"
            )
        self.bounding_box_format = None
        self.data_format = standardize_data_format(data_format, owner)
        if self._USE_BASE_FACTOR:
            self._set_factor(factor or 0.0)
        elif factor is not None:
            raise ValueError(
                f"Layer {owner} does not take a `factor` argument. "
                f"Received: factor={factor}"
            )

    def _set_factor(self, factor):
        low, high = self._FACTOR_BOUNDS
        message = (
            f"{type(self).__name__}: the `factor` argument should be a number "
            f"(or a list of two numbers) in the range [{low}, {high}]. "
            f"Received: factor={factor!r}"
        )
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or not all(_is_number(f) for f in factor):
                raise ValueError(message)
            if factor[0] > high or factor[1] < low:
                raise ValueError(message)
            lower, upper = sorted(factor)
        elif _is_number(factor):
            if factor < low or factor > high:
                raise ValueError(message)
            factor = abs(factor)
            lower, upper = max(-factor, low), factor
        else:
            raise ValueError(message)
        self.factor = (lower, upper)

    # ------------------------------------------------------------- shapes
    @property
    def _height_axis(self):
        return -3 if self.data_format == "channels_last" else -2

    @property
    def _width_axis(self):
        return -2 if self.data_format == "channels_last" else -1

    def _check_rank(self, shape):
        if len(shape) not in (3, 4):
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}): expected image "
                "tensor to have rank 3 (single image) or 4 (batch of images). "
                f"Received: data.shape={tuple(shape)}"
            )

    def _image_size(self, shape):
        return shape[self._height_axis], shape[self._width_axis]

    def _channels_last(self, images):
        """``images`` as a ``(batch, height, width, channels)`` batch."""
        if self.data_format == "channels_first":
            images = ops.transpose(images, (0, 2, 3, 1))
        return images

    def _from_channels_last(self, images):
        if self.data_format == "channels_first":
            images = ops.transpose(images, (0, 3, 1, 2))
        return images

    # -------------------------------------------------------- the two steps
    def get_random_transformation(self, data, training=True, seed=None):
        """What this call does to ``data``; ``None`` by default."""
        return None

    def transform_images(self, images, transformation, training=True):
        """``images`` (a batch) cast to the layer's dtype, transformed by
        ``_transform_images`` when ``training``."""
        images = ops.cast(images, self.dtype)
        if training and transformation is not None:
            images = self._transform_images(images, transformation,
                                            getattr(self, "interpolation", None))
        return images

    def _transform_images(self, images, transformation, interpolation):
        raise NotImplementedError

    def transform_single_image(self, image, transformation, training=True):
        images = ops.expand_dims(image, axis=0)
        outputs = self.transform_images(images, transformation, training=training)
        return ops.squeeze(outputs, axis=0)

    def call(self, data, training=True):
        if isinstance(data, dict):
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}): kerasmini's image "
                "layers take a tensor of images, not a dict of images, labels, "
                f"bounding boxes and masks. Received: keys {sorted(data)}"
            )
        self._check_rank(data.shape)
        transformation = self.get_random_transformation(data, training=training)
        if len(data.shape) == 4:
            return self.transform_images(data, transformation, training=training)
        return self.transform_single_image(data, transformation, training=training)

    def compute_output_shape(self, input_shape):
        self._check_rank(input_shape)
        return tuple(input_shape)

    def _output_dtype(self, input_dtype):
        return self.dtype

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(self.compute_output_shape(inputs.shape),
                           self._output_dtype(inputs.dtype))

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config

    # ------------------------------------------------------------ helpers
    def _compute_affine_matrix(self, center_x, center_y, angle, translate_x,
                               translate_y, scale, height, width):
        """One 8-number transform per image (``(batch,)`` tensors in, a
        ``(batch, 8)`` tensor out): rotation by ``angle`` degrees about the
        point ``(center_x, center_y)`` (fractions of the size), then a
        ``scale`` and a translation. Each output pixel ``(x, y)`` reads the
        input at ``(a0 x + a1 y + a2, b0 x + b1 y + b2)``."""
        angle = ops.multiply(angle, np.float32(np.pi / 180.0))
        cx = center_x * (np.float32(width) - 1)
        cy = center_y * (np.float32(height) - 1)
        cos, sin = ops.cos(angle), ops.sin(angle)
        a0 = ops.multiply(scale, cos)
        a1 = ops.multiply(scale, ops.negative(sin))
        a2 = ops.subtract(ops.subtract(ops.add(translate_x, cx), ops.multiply(a0, cx)),
                          ops.multiply(a1, cy))
        b0 = ops.multiply(scale, sin)
        b1 = ops.multiply(scale, cos)
        b2 = ops.subtract(ops.subtract(ops.add(translate_y, cy), ops.multiply(b0, cx)),
                          ops.multiply(b1, cy))
        zeros = ops.zeros_like(angle)
        return ops.stack([a0, a1, a2, b0, b1, b2, zeros, zeros], axis=1)

    def _affine_transform(self, images, transform, interpolation):
        """``images`` (a batch) resampled through ``transform`` (``(batch,
        8)``) with the layer's ``fill_mode`` and ``fill_value``."""
        out = affine_transform(
            self._channels_last(images), ops.cast(transform, "float32"),
            interpolation=interpolation, fill_mode=self.fill_mode,
            fill_value=self.fill_value)
        return self._from_channels_last(out)


def _is_number(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and not \
        isinstance(value, (bool, np.bool_))


def check_fill_and_interpolation(owner, fill_mode, interpolation, fill_modes,
                                 interpolations):
    """``fill_mode`` and ``interpolation`` among those the layer supports.

    >>> check_fill_and_interpolation("RandomZoom", "edge", "bilinear",
    ...                              ("reflect",), ("bilinear",))
    Traceback (most recent call last):
      ...
    ValueError: RandomZoom: argument `fill_mode` must be one of ('reflect',). ...
    """
    validation.check_choice(fill_mode, "fill_mode", fill_modes, owner=owner)
    validation.check_choice(interpolation, "interpolation", interpolations,
                            owner=owner)


def check_fill_value(value, owner):
    """``fill_value`` as a float.

    >>> check_fill_value(1, "RandomRotation")
    1.0
    """
    return validation.check_float(value, "fill_value", owner=owner)


__all__ = ["BaseImagePreprocessingLayer", "DATA_FORMATS", "check_fill_and_interpolation",
           "check_fill_value", "check_size", "standardize_data_format"]
