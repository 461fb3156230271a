"""The engine: the classes every model is made of.

``module.py`` (Module) -> ``base_layer.py`` (Layer) -> ``training.py`` (Model)
-> ``functional.py`` (Functional) -> ``sequential.py`` (Sequential), plus the
pieces they share: ``input_spec.py``, ``keras_tensor.py``, ``node.py``,
``input_layer.py`` and ``call_context.py``.
"""
