"""The table of pinned Keras links, one entry per kerasmini name.

Keys are kerasmini-style dotted names: a class (``"Dense"``), a method
(``"Layer.add_weight"``) or a function (``"map_graph"``). Each key has one
:class:`~kerasmini.book.source_refs.SourceRef` per Keras version, or ``None``
where that version has no counterpart. This file is data, long on purpose: one
place to read and re-check every link of the book
(:func:`kerasmini.book.keras_sources.verify_against_checkout`).

>>> KERAS_SOURCES["Dense.call"].keras3.path
'keras/src/layers/core/dense.py'
"""

from __future__ import annotations

from kerasmini.book.source_refs import KERAS2_TAG, KERAS3_TAG, KerasSource, SourceRef


def _k2(path: str, start: int, end: int, symbol: str = "") -> SourceRef:
    return SourceRef(KERAS2_TAG, path, start, end, symbol)


def _k3(path: str, start: int, end: int, symbol: str = "") -> SourceRef:
    return SourceRef(KERAS3_TAG, path, start, end, symbol)


_K2_BACKEND = "keras/backend.py"
_K2_LAYER = "keras/engine/base_layer.py"
_K2_NODE = "keras/engine/node.py"
_K2_FUNCTIONAL = "keras/engine/functional.py"
_K2_TRAINING = "keras/engine/training.py"
_K2_SEQUENTIAL = "keras/engine/sequential.py"
_K2_CORE = "keras/layers/core.py"
_K2_CALLBACKS = "keras/callbacks.py"
_K2_GENERIC = "keras/utils/generic_utils.py"
_K2_OPTIMIZER = "keras/optimizer_v2/optimizer_v2.py"
_K3_LAYER = "keras/src/layers/layer.py"
_K3_NODE = "keras/src/ops/node.py"
_K3_FUNCTION = "keras/src/ops/function.py"
_K3_FUNCTIONAL = "keras/src/models/functional.py"
_K3_MODEL = "keras/src/models/model.py"
_K3_TF_TRAINER = "keras/src/backend/tensorflow/trainer.py"
_K3_SEQUENTIAL = "keras/src/models/sequential.py"
_K3_DENSE = "keras/src/layers/core/dense.py"
_K3_SERIALIZATION = "keras/src/saving/serialization_lib.py"
_K3_SAVING = "keras/src/saving/saving_lib.py"
_K3_OPTIMIZER = "keras/src/optimizers/base_optimizer.py"
_K3_TRAINER = "keras/src/trainers/trainer.py"
_K2_COMPILE_UTILS = "keras/engine/compile_utils.py"
_K3_COMPILE_UTILS = "keras/src/trainers/compile_utils.py"
_K2_LOSSES = "keras/losses.py"
_K2_MHA = "keras/layers/multi_head_attention.py"
_K3_MHA = "keras/src/layers/attention/multi_head_attention.py"
_K2_EINSUM = "keras/layers/einsum_dense.py"
_K3_EINSUM = "keras/src/layers/core/einsum_dense.py"
_K3_LOSSES = "keras/src/losses/losses.py"

# Keras 3 trains through a backend Trainer; kerasmini's loop has a GradientTape,
# so the model-training rows point at the TensorFlow backend's trainer.
KERAS_SOURCES: dict[str, KerasSource] = {
    # backend: variables, names, global state
    "Variable": KerasSource(
        _k2(_K2_BACKEND, 1012, 1060, "variable"),
        _k3("keras/src/backend/common/variables.py", 15, 552),
    ),
    "Variable.assign": KerasSource(
        None,
        _k3("keras/src/backend/common/variables.py", 282, 298),
    ),
    "name_scope": KerasSource(
        _k2(_K2_BACKEND, 979, 1005),
        _k3("keras/src/backend/common/name_scope.py", 4, 62),
    ),
    "auto_name": KerasSource(
        _k2(_K2_BACKEND, 1085, 1138, "unique_object_name"),
        _k3("keras/src/utils/naming.py", 8, 10),
    ),
    "get_uid": KerasSource(
        _k2(_K2_BACKEND, 184, 207),
        _k3("keras/src/utils/naming.py", 34, 57),
    ),
    "clear_session": KerasSource(
        _k2(_K2_BACKEND, 219, 281),
        _k3("keras/src/backend/common/global_state.py", 24, 98),
    ),
    "track_variable": KerasSource(
        _k2(_K2_BACKEND, 1071, 1077),
        None,
    ),
    "stop_gradient": KerasSource(
        _k2(_K2_BACKEND, 4112, 4129),
        _k3("keras/src/ops/core.py", 676, 697),
    ),
    # Keras 3 takes gradients through the backend; the JAX trainer shows it
    # most plainly (jax.value_and_grad of a stateless loss function)
    "GradientTape.gradient": KerasSource(
        None,
        _k3("keras/src/backend/jax/trainer.py", 39, 96,
            "JAXTrainer.compute_loss_and_updates"),
    ),
    "keras_export": KerasSource(
        None,
        _k3("keras/src/api_export.py", 33, 39),
    ),
    # engine: Layer
    "Layer": KerasSource(
        _k2(_K2_LAYER, 83, 255),
        _k3(_K3_LAYER, 70, 220),
    ),
    "Layer.__init__": KerasSource(
        _k2(_K2_LAYER, 299, 436),
        _k3(_K3_LAYER, 264, 344),
    ),
    "Layer.build": KerasSource(
        _k2(_K2_LAYER, 438, 457),
        _k3(_K3_LAYER, 427, 439),
    ),
    "Layer.call": KerasSource(
        _k2(_K2_LAYER, 459, 502),
        _k3(_K3_LAYER, 1062, 1063),
    ),
    "Layer.add_weight": KerasSource(
        _k2(_K2_LAYER, 527, 685),
        _k3(_K3_LAYER, 524, 636),
    ),
    "Layer._maybe_build": KerasSource(
        _k2(_K2_LAYER, 2630, 2671),
        _k3(_K3_LAYER, 1539, 1585),
    ),
    "Layer.__call__": KerasSource(
        _k2(_K2_LAYER, 926, 1046),
        _k3(_K3_LAYER, 872, 1060),
    ),
    "Layer.__setattr__": KerasSource(
        _k2(_K2_LAYER, 2771, 2842),
        _k3(_K3_LAYER, 1624, 1651),
    ),
    "Layer.trainable_weights": KerasSource(
        _k2(_K2_LAYER, 1300, 1313),
        _k3(_K3_LAYER, 732, 740),
    ),
    "Layer.weights": KerasSource(
        _k2(_K2_LAYER, 1336, 1343),
        _k3(_K3_LAYER, 711, 730),
    ),
    "Layer.get_weights": KerasSource(
        _k2(_K2_LAYER, 1811, 1853),
        _k3(_K3_LAYER, 770, 772),
    ),
    "Layer.set_weights": KerasSource(
        _k2(_K2_LAYER, 1726, 1809),
        _k3(_K3_LAYER, 774, 790),
    ),
    "Layer.count_params": KerasSource(
        _k2(_K2_LAYER, 2132, 2151),
        _k3(_K3_LAYER, 1523, 1537),
    ),
    "Layer.compute_output_spec": KerasSource(
        _k2(_K2_LAYER, 850, 902, "Layer._infer_output_signature"),
        _k3(_K3_LAYER, 1202, 1246),
    ),
    # Keras 3's op layer (Keras 2 has none: its layers call TensorFlow)
    "Operation": KerasSource(
        None,
        _k3("keras/src/ops/operation.py", 20, 442),
    ),
    "Operation.__call__": KerasSource(
        None,
        _k3("keras/src/ops/operation.py", 36, 81),
    ),
    "Operation.symbolic_call": KerasSource(
        None,
        _k3("keras/src/ops/operation.py", 83, 95),
    ),
    "Matmul": KerasSource(
        None,
        _k3("keras/src/ops/numpy.py", 5070, 5089),
    ),
    "matmul": KerasSource(
        _k2(_K2_BACKEND, 1916, 1980, "dot"),
        _k3("keras/src/ops/numpy.py", 5092, 5114),
    ),
    "infer_by_dry_run": KerasSource(
        None,
        _k3("keras/src/backend/numpy/core.py", 97, 155, "compute_output_spec"),
    ),
    "SeedGenerator": KerasSource(
        None,
        _k3("keras/src/random/seed_generator.py", 14, 118),
    ),
    "Layer.compute_output_shape": KerasSource(
        _k2(_K2_LAYER, 750, 793),
        _k3(_K3_LAYER, 1248, 1253),
    ),
    "Layer.get_config": KerasSource(
        _k2(_K2_LAYER, 687, 730),
        _k3(_K3_LAYER, 1743, 1755),
    ),
    "Layer._resolve_training": KerasSource(
        _k2(_K2_LAYER, 1131, 1172, "Layer._set_training_mode"),
        _k3(_K3_LAYER, 1065, 1086, "Layer._resolve_and_populate_arg"),
    ),
    # engine: input spec, symbolic tensors, nodes
    "InputSpec": KerasSource(
        _k2("keras/engine/input_spec.py", 25, 128),
        _k3("keras/src/layers/input_spec.py", 6, 119),
    ),
    "assert_input_compatibility": KerasSource(
        _k2("keras/engine/input_spec.py", 154, 269),
        _k3("keras/src/layers/input_spec.py", 122, 261),
    ),
    "KerasTensor": KerasSource(
        _k2("keras/engine/keras_tensor.py", 30, 379),
        _k3("keras/src/backend/common/keras_tensor.py", 6, 399),
    ),
    "Input": KerasSource(
        _k2("keras/engine/input_layer.py", 254, 391),
        _k3("keras/src/layers/core/input_layer.py", 145, 221),
    ),
    "InputLayer": KerasSource(
        _k2("keras/engine/input_layer.py", 36, 251),
        _k3("keras/src/layers/core/input_layer.py", 9, 142),
    ),
    "Node": KerasSource(
        _k2(_K2_NODE, 33, 258),
        _k3(_K3_NODE, 8, 108),
    ),
    "KerasHistory": KerasSource(
        _k2(_K2_NODE, 261, 283),
        _k3(_K3_NODE, 111, 139),
    ),
    "Node.iterate_inbound": KerasSource(
        _k2(_K2_NODE, 128, 139),
        None,
    ),
    "Node.parent_nodes": KerasSource(
        _k2(_K2_NODE, 117, 126),
        _k3(_K3_NODE, 95, 108),
    ),
    # engine: Functional
    "Functional": KerasSource(
        _k2(_K2_FUNCTIONAL, 41, 871),
        _k3(_K3_FUNCTIONAL, 27, 509),
    ),
    "Functional.__init__": KerasSource(
        _k2(_K2_FUNCTIONAL, 111, 221, "Functional._init_graph_network"),
        _k3(_K3_FUNCTIONAL, 102, 148),
    ),
    "Functional._init_graph_network": KerasSource(
        _k2(_K2_FUNCTIONAL, 111, 221),
        _k3(_K3_FUNCTION, 46, 96, "Function.__init__"),
    ),
    "map_graph": KerasSource(
        _k2(_K2_FUNCTIONAL, 878, 997, "_map_graph_network"),
        _k3(_K3_FUNCTION, 260, 388),
    ),
    "Functional._run_internal_graph": KerasSource(
        _k2(_K2_FUNCTIONAL, 506, 562),
        _k3(_K3_FUNCTION, 173, 226, "Function._run_through_graph"),
    ),
    "Functional.get_config": KerasSource(
        _k2(_K2_FUNCTIONAL, 642, 643),
        _k3(_K3_FUNCTIONAL, 435, 509),
    ),
    # engine: Model and training
    "Model": KerasSource(
        _k2(_K2_TRAINING, 102, 178),
        _k3(_K3_MODEL, 38, 142),
    ),
    "Model.__new__": KerasSource(
        _k2(_K2_TRAINING, 184, 191),
        _k3(_K3_MODEL, 144, 150),
    ),
    "Model.compile": KerasSource(
        _k2(_K2_TRAINING, 449, 571),
        _k3("keras/src/trainers/trainer.py", 38, 236, "Trainer.compile"),
    ),
    "Model.fit": KerasSource(
        _k2(_K2_TRAINING, 876, 1239),
        _k3(_K3_TF_TRAINER, 314, 453, "TensorFlowTrainer.fit"),
    ),
    "Model.train_step": KerasSource(
        _k2(_K2_TRAINING, 755, 801),
        _k3(_K3_TF_TRAINER, 53, 88, "TensorFlowTrainer.train_step"),
    ),
    "Model.test_step": KerasSource(
        _k2(_K2_TRAINING, 1241, 1280),
        _k3(_K3_TF_TRAINER, 90, 105, "TensorFlowTrainer.test_step"),
    ),
    "Model.predict_step": KerasSource(
        _k2(_K2_TRAINING, 1515, 1537),
        _k3(_K3_TF_TRAINER, 107, 113, "TensorFlowTrainer.predict_step"),
    ),
    "Model.make_train_function": KerasSource(
        _k2(_K2_TRAINING, 803, 874),
        _k3(_K3_TF_TRAINER, 254, 257, "TensorFlowTrainer.make_train_function"),
    ),
    # Keras 3 wraps the step in tf.function here, for train, test and predict
    "Model._make_function": KerasSource(
        None,
        _k3(_K3_TF_TRAINER, 130, 252, "TensorFlowTrainer._make_function"),
    ),
    "Model.compute_loss": KerasSource(
        None,
        _k3(_K3_TRAINER, 325, 402, "Trainer.compute_loss"),
    ),
    "Model.compute_metrics": KerasSource(
        None,
        _k3(_K3_TRAINER, 483, 527, "Trainer.compute_metrics"),
    ),
    "Model.metrics": KerasSource(
        _k2(_K2_TRAINING, 623, 671),
        _k3(_K3_TRAINER, 285, 304, "Trainer.metrics"),
    ),
    "Model.reset_metrics": KerasSource(
        _k2(_K2_TRAINING, 1778, 1798),
        _k3(_K3_TRAINER, 310, 312, "Trainer.reset_metrics"),
    ),
    "CompileLoss": KerasSource(
        _k2(_K2_COMPILE_UTILS, 100, 286, "LossesContainer"),
        _k3(_K3_COMPILE_UTILS, 429, 854),
    ),
    "CompileMetrics": KerasSource(
        _k2(_K2_COMPILE_UTILS, 289, 554, "MetricsContainer"),
        _k3(_K3_COMPILE_UTILS, 130, 426),
    ),
    "Model.evaluate": KerasSource(
        _k2(_K2_TRAINING, 1352, 1513),
        _k3(_K3_TF_TRAINER, 455, 519, "TensorFlowTrainer.evaluate"),
    ),
    "Model.predict": KerasSource(
        _k2(_K2_TRAINING, 1610, 1776),
        _k3(_K3_TF_TRAINER, 521, 598, "TensorFlowTrainer.predict"),
    ),
    "Model.summary": KerasSource(
        _k2(_K2_TRAINING, 2502, 2529),
        _k3(_K3_MODEL, 222, 271),
    ),
    "print_summary": KerasSource(
        _k2("keras/utils/layer_utils.py", 107, 272),
        _k3("keras/src/utils/summary_utils.py", 122, 390),
    ),
    "Model.save": KerasSource(
        _k2(_K2_TRAINING, 2094, 2146),
        _k3(_K3_MODEL, 273, 317),
    ),
    # engine: Sequential
    "Sequential": KerasSource(
        _k2(_K2_SEQUENTIAL, 40, 467),
        _k3(_K3_SEQUENTIAL, 19, 405),
    ),
    "Sequential.add": KerasSource(
        _k2(_K2_SEQUENTIAL, 148, 230),
        _k3(_K3_SEQUENTIAL, 78, 125),
    ),
    "Sequential.pop": KerasSource(
        _k2(_K2_SEQUENTIAL, 232, 255),
        _k3(_K3_SEQUENTIAL, 127, 142),
    ),
    "Sequential.build": KerasSource(
        _k2(_K2_SEQUENTIAL, 334, 346),
        _k3(_K3_SEQUENTIAL, 164, 235),
    ),
    # layers
    "Dense": KerasSource(
        _k2(_K2_CORE, 1066, 1270),
        _k3(_K3_DENSE, 20, 1247),
    ),
    "Dense.build": KerasSource(
        _k2(_K2_CORE, 1166, 1197),
        _k3(_K3_DENSE, 124, 156),
    ),
    "Dense.call": KerasSource(
        _k2(_K2_CORE, 1199, 1244),
        _k3(_K3_DENSE, 221, 227),
    ),
    "Dense.get_config": KerasSource(
        _k2(_K2_CORE, 1255, 1270),
        _k3(_K3_DENSE, 367, 390),
    ),
    "Dropout": KerasSource(
        _k2(_K2_CORE, 122, 226),
        _k3("keras/src/layers/regularization/dropout.py", 6, 120),
    ),
    "Activation": KerasSource(
        _k2(_K2_CORE, 388, 430),
        _k3("keras/src/layers/activations/activation.py", 6, 41),
    ),
    "Lambda": KerasSource(
        _k2(_K2_CORE, 740, 1063),
        _k3("keras/src/layers/core/lambda_layer.py", 12, 241),
    ),
    "Flatten": KerasSource(
        _k2(_K2_CORE, 606, 691),
        _k3("keras/src/layers/reshaping/flatten.py", 11, 84),
    ),
    "Reshape": KerasSource(
        _k2(_K2_CORE, 433, 545),
        _k3("keras/src/layers/reshaping/reshape.py", 9, 75),
    ),
    "Add": KerasSource(
        _k2("keras/layers/merge.py", 216, 250),
        _k3("keras/src/layers/merging/add.py", 6, 37),
    ),
    "Concatenate": KerasSource(
        _k2("keras/layers/merge.py", 419, 571),
        _k3("keras/src/layers/merging/concatenate.py", 8, 163),
    ),
    "Conv2D": KerasSource(
        _k2("keras/layers/convolutional.py", 521, 678),
        _k3("keras/src/layers/convolutional/conv2d.py", 5, 137),
    ),
    "BatchNormalization": KerasSource(
        _k2("keras/layers/normalization/batch_normalization.py", 1112, 1253),
        _k3("keras/src/layers/normalization/batch_normalization.py", 31, 586),
    ),
    "Embedding": KerasSource(
        _k2("keras/layers/embeddings.py", 30, 214),
        _k3("keras/src/layers/core/embedding.py", 20, 792),
    ),
    "MaxPooling2D": KerasSource(
        _k2("keras/layers/pooling.py", 393, 527),
        _k3("keras/src/layers/pooling/max_pooling2d.py", 5, 109),
    ),
    # optimizers
    "Optimizer.apply_gradients": KerasSource(
        _k2(_K2_OPTIMIZER, 581, 667, "OptimizerV2.apply_gradients"),
        _k3(_K3_OPTIMIZER, 460, 464, "BaseOptimizer.apply_gradients"),
    ),
    "SGD": KerasSource(
        _k2("keras/optimizer_v2/gradient_descent.py", 22, 187),
        _k3("keras/src/optimizers/sgd.py", 6, 133),
    ),
    "Adam": KerasSource(
        _k2("keras/optimizer_v2/adam.py", 23, 243),
        _k3("keras/src/optimizers/adam.py", 6, 149),
    ),
    "Optimizer.apply": KerasSource(
        None,
        _k3(_K3_OPTIMIZER, 466, 533, "BaseOptimizer.apply"),
    ),
    "Optimizer.build": KerasSource(
        _k2(_K2_OPTIMIZER, 800, 815, "OptimizerV2._create_all_weights"),
        _k3(_K3_OPTIMIZER, 210, 228, "BaseOptimizer.build"),
    ),
    "Optimizer.add_variable_from_reference": KerasSource(
        _k2(_K2_OPTIMIZER, 854, 912, "OptimizerV2.add_slot"),
        _k3(_K3_OPTIMIZER, 286, 325, "BaseOptimizer.add_variable_from_reference"),
    ),
    "Optimizer.variables": KerasSource(
        _k2(_K2_OPTIMIZER, 1061, 1063, "OptimizerV2.variables"),
        _k3(_K3_OPTIMIZER, 234, 236, "BaseOptimizer.variables"),
    ),
    "SGD.update_step": KerasSource(
        _k2("keras/optimizer_v2/gradient_descent.py", 125, 145,
            "SGD._resource_apply_dense"),
        _k3("keras/src/optimizers/sgd.py", 95, 123),
    ),
    "Adam.build": KerasSource(
        _k2("keras/optimizer_v2/adam.py", 113, 122, "Adam._create_slots"),
        _k3("keras/src/optimizers/adam.py", 81, 100),
    ),
    "Adam.update_step": KerasSource(
        _k2("keras/optimizer_v2/adam.py", 156, 191, "Adam._resource_apply_dense"),
        _k3("keras/src/optimizers/adam.py", 102, 137),
    ),
    # Keras 2 hands each variable to TF's fused ResourceApplyAdam kernel;
    # Keras 3's torch backend updates all variables at once (torch._foreach_*)
    "Adam.fused_update_step": KerasSource(
        _k2("keras/optimizer_v2/adam.py", 156, 191, "Adam._resource_apply_dense"),
        _k3("keras/src/backend/torch/optimizers/torch_adam.py", 9, 58,
            "Adam._parallel_update_step"),
    ),
    # callbacks and progress bar
    "Callback": KerasSource(
        _k2(_K2_CALLBACKS, 571, 877),
        _k3("keras/src/callbacks/callback.py", 6, 308),
    ),
    "CallbackList": KerasSource(
        _k2(_K2_CALLBACKS, 180, 567),
        _k3("keras/src/callbacks/callback_list.py", 13, 281),
    ),
    "CallbackList.__init__": KerasSource(
        _k2(_K2_CALLBACKS, 184, 241),
        _k3("keras/src/callbacks/callback_list.py", 17, 51),
    ),
    "History": KerasSource(
        _k2(_K2_CALLBACKS, 1115, 1152),
        _k3("keras/src/callbacks/history.py", 5, 42),
    ),
    "EarlyStopping": KerasSource(
        _k2(_K2_CALLBACKS, 1692, 1833),
        _k3("keras/src/callbacks/early_stopping.py", 8, 155),
    ),
    "ModelCheckpoint": KerasSource(
        _k2(_K2_CALLBACKS, 1155, 1574),
        _k3("keras/src/callbacks/model_checkpoint.py", 14, 470),
    ),
    "ProgbarLogger": KerasSource(
        _k2(_K2_CALLBACKS, 948, 1112),
        _k3("keras/src/callbacks/progbar_logger.py", 7, 105),
    ),
    "Progbar": KerasSource(
        _k2(_K2_GENERIC, 814, 1029),
        _k3("keras/src/utils/progbar.py", 12, 298),
    ),
    # serialization and saving
    "serialize_keras_object": KerasSource(
        _k2(_K2_GENERIC, 467, 530),
        _k3(_K3_SERIALIZATION, 151, 313),
    ),
    "deserialize_keras_object": KerasSource(
        _k2(_K2_GENERIC, 605, 721),
        _k3(_K3_SERIALIZATION, 427, 798),
    ),
    "register_keras_serializable": KerasSource(
        _k2(_K2_GENERIC, 344, 390),
        _k3("keras/src/saving/object_registration.py", 94, 156),
    ),
    "save_model": KerasSource(
        _k2("keras/saving/save.py", 35, 150),
        _k3(_K3_SAVING, 75, 145),
    ),
    "load_model": KerasSource(
        _k2("keras/saving/save.py", 153, 209),
        _k3(_K3_SAVING, 331, 370),
    ),
    "walk": KerasSource(
        None,
        _k3(_K3_SAVING, 738, 765, "_walk_saveable"),
    ),
    "save_state": KerasSource(
        _k2("keras/saving/hdf5_format.py", 618, 646, "save_weights_to_hdf5_group"),
        _k3(_K3_SAVING, 768, 830, "_save_state"),
    ),
    "Layer.save_own_variables": KerasSource(
        None,
        _k3(_K3_LAYER, 1435, 1446),
    ),
    "Layer.load_own_variables": KerasSource(
        None,
        _k3(_K3_LAYER, 1482, 1494),
    ),
    "Layer.get_build_config": KerasSource(
        None,
        _k3(_K3_LAYER, 454, 476),
    ),
    "SafeModeScope": KerasSource(
        None,
        _k3(_K3_SERIALIZATION, 74, 87),
    ),
    "Lambda.from_config": KerasSource(
        _k2(_K2_CORE, 1002, 1031),
        _k3("keras/src/layers/core/lambda_layer.py", 182, 241),
    ),
    # losses and metrics
    "Loss": KerasSource(
        _k2("keras/losses.py", 34, 199),
        _k3("keras/src/losses/loss.py", 10, 98),
    ),
    "MeanSquaredError": KerasSource(
        _k2("keras/losses.py", 255, 310),
        _k3("keras/src/losses/losses.py", 52, 98),
    ),
    "Loss.__call__": KerasSource(
        _k2(_K2_LOSSES, 106, 143),
        _k3("keras/src/losses/loss.py", 56, 85),
    ),
    "reduce_weighted_values": KerasSource(
        _k2("keras/utils/losses_utils.py", 271, 327, "compute_weighted_loss"),
        _k3("keras/src/losses/loss.py", 164, 194),
    ),
    "binary_crossentropy": KerasSource(
        _k2(_K2_LOSSES, 1765, 1810),
        _k3(_K3_LOSSES, 2374, 2417),
    ),
    "categorical_crossentropy": KerasSource(
        _k2(_K2_LOSSES, 1620, 1666),
        _k3(_K3_LOSSES, 2148, 2208),
    ),
    "sparse_categorical_crossentropy": KerasSource(
        _k2(_K2_LOSSES, 1710, 1739),
        _k3(_K3_LOSSES, 2307, 2371),
    ),
    "CategoricalCrossentropy": KerasSource(
        _k2(_K2_LOSSES, 596, 676),
        _k3(_K3_LOSSES, 915, 1016),
    ),
    "Metric": KerasSource(
        _k2("keras/metrics.py", 80, 358),
        _k3("keras/src/metrics/metric.py", 11, 254),
    ),
    "Mean": KerasSource(
        _k2("keras/metrics.py", 496, 535),
        _k3("keras/src/metrics/reduction_metrics.py", 96, 158),
    ),
    "Metric.update_state": KerasSource(
        _k2("keras/metrics.py", 262, 280),
        _k3("keras/src/metrics/metric.py", 117, 119),
    ),
    "Metric.result": KerasSource(
        _k2("keras/metrics.py", 282, 289),
        _k3("keras/src/metrics/metric.py", 146, 152),
    ),
    "Metric.reset_state": KerasSource(
        _k2("keras/metrics.py", 247, 260),
        _k3("keras/src/metrics/metric.py", 108, 115),
    ),
    "MeanMetricWrapper": KerasSource(
        _k2("keras/metrics.py", 618, 705),
        _k3("keras/src/metrics/reduction_metrics.py", 161, 219),
    ),
    "Layer.add_loss": KerasSource(
        _k2(_K2_LAYER, 1415, 1533),
        _k3(_K3_LAYER, 1255, 1283),
    ),
    "Layer.losses": KerasSource(
        _k2(_K2_LAYER, 1353, 1413),
        _k3(_K3_LAYER, 1311, 1321),
    ),
    "Layer.trainable": KerasSource(
        _k2(_K2_LAYER, 1229, 1242),
        _k3(_K3_LAYER, 643, 661),
    ),
    # chapter 15, attention: a layer made of layers (checked at v2.6.0 and
    # v3.15.1; Keras 2.6 keeps these in keras/layers/, Keras 3 in
    # keras/src/layers/attention/ and core/)
    "MultiHeadAttention": KerasSource(
        _k2(_K2_MHA, 122, 212),
        _k3(_K3_MHA, 19, 113),
    ),
    "MultiHeadAttention.build": KerasSource(
        _k2(_K2_MHA, 299, 371, "MultiHeadAttention._build_from_signature"),
        _k3(_K3_MHA, 266, 361),
    ),
    "MultiHeadAttention._build_attention": KerasSource(
        _k2(_K2_MHA, 400, 419),
        _k3(_K3_MHA, 428, 458),
    ),
    "MultiHeadAttention._masked_softmax": KerasSource(
        _k2(_K2_MHA, 421, 431),
        _k3(_K3_MHA, 460, 474),
    ),
    "MultiHeadAttention._compute_attention": KerasSource(
        _k2(_K2_MHA, 433, 478),
        _k3(_K3_MHA, 476, 608),
    ),
    "MultiHeadAttention.call": KerasSource(
        _k2(_K2_MHA, 480, 509),
        _k3(_K3_MHA, 610, 702),
    ),
    "MultiHeadAttention._compute_attention_mask": KerasSource(
        None,
        _k3(_K3_MHA, 704, 777),
    ),
    "MultiHeadAttention.compute_output_spec": KerasSource(
        None,
        _k3(_K3_MHA, 850, 879),
    ),
    "projection_equation": KerasSource(
        _k2(_K2_MHA, 89, 115, "_build_proj_equation"),
        _k3(_K3_MHA, 948, 974, "_build_proj_equation"),
    ),
    "attention_equations": KerasSource(
        _k2(_K2_MHA, 41, 86, "_build_attention_equation"),
        _k3(_K3_MHA, 890, 945, "_build_attention_equation"),
    ),
    "EinsumDense": KerasSource(
        _k2(_K2_EINSUM, 29, 106),
        _k3(_K3_EINSUM, 26, 125),
    ),
    "EinsumDense.build": KerasSource(
        _k2(_K2_EINSUM, 136, 163),
        _k3(_K3_EINSUM, 180, 235),
    ),
    "EinsumDense.call": KerasSource(
        _k2(_K2_EINSUM, 196, 202),
        _k3(_K3_EINSUM, 312, 318),
    ),
    "analyze_equation": KerasSource(
        _k2(_K2_EINSUM, 205, 233, "_analyze_einsum_string"),
        _k3(_K3_EINSUM, 1614, 1676, "_analyze_einsum_string"),
    ),
    "Softmax": KerasSource(
        _k2("keras/layers/advanced_activations.py", 292, 324),
        _k3("keras/src/layers/activations/softmax.py", 14, 46),
    ),
    "Attention": KerasSource(
        _k2("keras/layers/dense_attention.py", 214, 313),
        _k3("keras/src/layers/attention/attention.py", 8, 64),
    ),
    "build_shapes_by_name": KerasSource(
        None,
        _k3(_K3_LAYER, 1974, 2047, "update_shapes_dict_for_target_fn"),
    ),
    # part 1 of the book, issue 10: the corrections of chapters 2-8
    "init_scope": KerasSource(
        _k2("keras/utils/tf_utils.py", 416, 432, "maybe_init_scope"),
        None,
    ),
    # issue 22, the saving side (chapter 13): how each library loads weights
    # back, and saving the weights alone (Keras 2: an HDF5 file or a TF
    # checkpoint; Keras 3 and kerasmini: `.weights.h5`)
    "load_state": KerasSource(
        _k2("keras/saving/hdf5_format.py", 649, 713, "load_weights_from_hdf5_group"),
        _k3(_K3_SAVING, 833, 934, "_load_state"),
    ),
    "Model.save_weights": KerasSource(
        _k2(_K2_TRAINING, 2148, 2264),
        _k3(_K3_MODEL, 319, 375),
    ),
    "Model.load_weights": KerasSource(
        _k2(_K2_TRAINING, 2266, 2366),
        _k3(_K3_MODEL, 377, 425),
    ),
}

# kerasmini names whose real counterpart is not in keras-team/keras at all.
NOT_IN_KERAS: dict[str, str] = {
    "Module": "Keras 2 builds on tf.Module, which lives in TensorFlow "
    "(tensorflow/python/module/module.py); Keras 3 has no Module class",
    "GradientTape": "tf.GradientTape lives in TensorFlow; Keras 3 uses the "
    "backend's own autodiff (tf.GradientTape, jax.grad, torch autograd)",
    "function": "tf.function lives in TensorFlow; Keras 3 compiles through the "
    "backend (tf.function, jax.jit)",
}
