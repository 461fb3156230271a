"""The engine: the layer floor, what every layer and model is made of.

``module.py`` (``Module``, Keras 2's ``tf.Module`` root) and
``base_layer.py`` (``Layer``, a ``Module`` and a Keras 3
:class:`~kerasmini.ops.operation.Operation`), with the pieces ``Layer``
uses: ``base_layer_utils.py`` (its small helpers), ``call_context.py`` (the
``training`` flag an outer call passes down), ``input_spec.py``
(``InputSpec`` and the input check of ``__call__``), ``shape_inference.py``
(output shapes without data) and ``input_layer.py`` (``InputLayer`` and
``Input``). The symbolic graph sits below (``KerasTensor`` in
:mod:`kerasmini.backend.keras_tensor`, ``Node`` and ``Operation`` in
:mod:`kerasmini.ops`); the models above (:mod:`kerasmini.models`).
"""
