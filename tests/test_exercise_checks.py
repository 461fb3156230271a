"""Every exercise's check against right and wrong answers.

For each exercise of the book (kerasmini/book/exercises/chNN.py): the
chapter's solution passes; where the task says to write something yourself,
an answer that calls kerasmini's own implementation is refused with a message
that says so; and plausible wrong answers, the mistakes a reader makes, fail
with a message that names the mistake. The answers are the chapters' own
solution cells with their solution regions replaced (tests/exercise_answers.py).
"""

import importlib
import re
import textwrap
from dataclasses import dataclass

import pytest
from exercise_answers import (
    answers,
    chapter_module,
    grade_call,
    labels,
    stub_answers,
)

from kerasmini.book import exercises
from kerasmini.book.exercises import _support


@dataclass(frozen=True)
class Wrong:
    """A wrong answer: the solution regions of ``label`` replaced by ``body``
    (a string, or a list for several regions); the check must fail with an
    error whose message matches ``match``."""

    label: str
    why: str
    body: object
    match: str
    before: str = ""
    error: type = AssertionError


def Own(label, body, name, before=""):  # noqa: N802 (reads like Wrong)
    """An answer that uses kerasmini's own ``name``: refused."""
    return Wrong(label, f"uses kerasmini's own {name}", body,
                 ("kerasmini's own " + re.escape(name)
                  + "; the task asks you to write it yourself"), before)


def run_check(label, objects):
    module = importlib.import_module(chapter_module(label))
    exercises.checks(module)[label](*objects)


# --------------------------------------------------------------------------
# Chapter 1

WRONG = [
    Wrong("ch01-where-defined", "absolute path", """
        obj = get_symbol_from_name(public_name)
        return inspect.getsourcefile(obj)
        """, "absolute path"),
    Wrong("ch01-where-defined", "the file of the public module", """
        return public_name.rsplit(".", 1)[0].replace(".", "/") + "/__init__.py"
        """, "where the name is exported"),
    Wrong("ch01-where-defined", "the module's dotted name", """
        return get_symbol_from_name(public_name).__module__
        """, "should be 'kerasmini/"),
    Wrong("ch01-module-imports", "walks into functions", """
        found = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
        return sorted(n for n in found if n.startswith("kerasmini"))
        """, "inside a function"),
    Wrong("ch01-module-imports", "module plus imported name", """
        found = set()
        for node in ast.parse(source).body:
            if isinstance(node, ast.ImportFrom) and node.module:
                found.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        return sorted(n for n in found if n.startswith("kerasmini"))
        """, "the module is M, not M.name"),
    Wrong("ch01-module-imports", "a list with repeats", """
        found = []
        for node in ast.parse(source).body:
            if isinstance(node, ast.Import):
                found += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.append(node.module)
        return sorted(n for n in found if n.startswith("kerasmini"))
        """, "each module once"),
    Wrong("ch01-module-imports", "only the first name of `import a, b`", """
        found = set()
        for node in ast.parse(source).body:
            if isinstance(node, ast.Import):
                found.add(node.names[0].name)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
        return sorted(n for n in found if n.startswith("kerasmini"))
        """, "imports two modules"),
    Wrong("ch01-module-imports", "not sorted", """
        found = []
        for node in ast.parse(source).body:
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            else:
                continue
            found += [n for n in names if n.startswith("kerasmini")
                      and n not in found]
        return found
        """, "sort the list"),
    Wrong("ch01-wrong-way", "the comparison reversed", """
        rank = {name: i for i, name in enumerate(order)}
        return sorted((a, b) for a, b in arrows if rank[a] > rank[b])
        """, "right direction"),
    Wrong("ch01-wrong-way", "a floor using itself counted", """
        rank = {name: i for i, name in enumerate(order)}
        return sorted((a, b) for a, b in arrows if rank[a] <= rank[b])
        """, "to itself is not"),
    Wrong("ch01-wrong-way", "names compared, not ranks", """
        return sorted((a, b) for a, b in arrows if a < b)
        """, "expected"),
    Wrong("ch01-wrong-way", "not sorted", """
        rank = {name: i for i, name in enumerate(order)}
        return [(a, b) for a, b in arrows if rank[a] < rank[b]]
        """, "not sorted"),
]


# --------------------------------------------------------------------------
# Chapter 2

WRONG += [
    Wrong("ch02-count-scalars", "counts every variable", """
        return int(sum(np.prod(v.shape) for v in module.variables))
        """, "non-trainable"),
    Wrong("ch02-count-scalars", "counts the variables, not their numbers", """
        return len(module.trainable_variables)
        """, "number of variables"),
    Wrong("ch02-count-scalars", "forgets the biases", """
        return int(sum(np.prod(v.shape) for v in module.trainable_variables
                       if len(v.shape) == 2))
        """, "biases"),
    Wrong("ch02-count-scalars", "reads only the module's own attributes", """
        return int(sum(np.prod(v.shape) for v in vars(module).values()
                       if isinstance(v, keras.Variable) and v.trainable))
        """, "nested modules"),
    Wrong("ch02-count-scalars", "a shared weight counted twice", """
        total = 0
        def walk(obj):
            nonlocal total
            for value in keras.tree.flatten(list(vars(obj).values())):
                if isinstance(value, keras.Variable) and value.trainable:
                    total += int(np.prod(value.shape))
                elif isinstance(value, keras.Module):
                    walk(value)
        walk(module)
        return total
        """, "counts once"),
    Wrong("ch02-checkpoint", "keeps the variables, not copies", """
        return {v.path: v for v in module.variables}
        """, "save copies"),
    Wrong("ch02-checkpoint", "keys by name", """
        return {v.name: v.numpy() for v in module.variables}
        """, "path"),
    Wrong("ch02-checkpoint", "only the trainable variables", """
        return {v.path: v.numpy() for v in module.trainable_variables}
        """, "non-trainable"),
    Wrong("ch02-make-path", "a scope opened and never closed", """
        *scopes, name = path.split("/")
        for scope in scopes:
            keras.name_scope(scope).__enter__()
        return keras.Variable(value, name=name)
        """, "left open"),
    Wrong("ch02-make-path", "only the first scope", """
        *scopes, name = path.split("/")
        if not scopes:
            return keras.Variable(value, name=name)
        with keras.name_scope(scopes[0]):
            return keras.Variable(value, name=name)
        """, "every part but the last"),
    Wrong("ch02-make-path", "scopes in reverse", """
        *scopes, name = path.split("/")
        with contextlib.ExitStack() as stack:
            for scope in reversed(scopes):
                stack.enter_context(keras.name_scope(scope))
            return keras.Variable(value, name=name)
        """, "outermost first"),
    Wrong("ch02-make-path", "the value forgotten", """
        *scopes, name = path.split("/")
        with contextlib.ExitStack() as stack:
            for scope in scopes:
                stack.enter_context(keras.name_scope(scope))
            return keras.Variable(np.zeros_like(value), name=name)
        """, "does not hold the value"),
    Own("ch02-find-variables", """
        return list(module.variables)
        """, "Module.variables"),
    Own("ch02-find-variables", """
        return list(module._flatten(lambda v: isinstance(v, keras.Variable)))
        """, "Module._flatten"),
    Wrong("ch02-find-variables", "no memory of the modules seen", """
        found, children = [], []
        for key in sorted(vars(module)):
            for leaf in keras.tree.flatten(vars(module)[key]):
                if isinstance(leaf, keras.Variable):
                    if all(leaf is not f for f in found):
                        found.append(leaf)
                elif isinstance(leaf, keras.Module):
                    children.append(leaf)
        for child in children:
            found.extend(find_variables(child))
        return found
        """, "loops"),
    Wrong("ch02-find-variables", "enters a child module at once", """
        seen = set() if seen is None else seen
        seen.add(id(module))
        found = []
        for key in sorted(vars(module)):
            for leaf in keras.tree.flatten(vars(module)[key]):
                if id(leaf) in seen:
                    continue
                if isinstance(leaf, keras.Variable):
                    seen.add(id(leaf))
                    found.append(leaf)
                elif isinstance(leaf, keras.Module):
                    found.extend(find_variables(leaf, seen))
        return found
        """, "only after all the direct attributes"),
    Wrong("ch02-find-variables", "attributes in the order they were set", """
        seen = set() if seen is None else seen
        seen.add(id(module))
        found, children = [], []
        for key in vars(module):
            for leaf in keras.tree.flatten(vars(module)[key]):
                if id(leaf) in seen:
                    continue
                if isinstance(leaf, keras.Variable):
                    seen.add(id(leaf))
                    found.append(leaf)
                elif isinstance(leaf, keras.Module):
                    children.append(leaf)
        for child in children:
            found.extend(find_variables(child, seen))
        return found
        """, "sorted by name"),
    Wrong("ch02-find-variables", "a variable kept each time it is met", """
        seen = set() if seen is None else seen
        seen.add(id(module))
        found, children = [], []
        for key in sorted(vars(module)):
            for leaf in keras.tree.flatten(vars(module)[key]):
                if isinstance(leaf, keras.Variable):
                    found.append(leaf)
                elif isinstance(leaf, keras.Module) and id(leaf) not in seen:
                    children.append(leaf)
        for child in children:
            found.extend(find_variables(child, seen))
        return found
        """, "reported twice"),
]


# --------------------------------------------------------------------------
# Chapter 3

WRONG += [
    Wrong("ch03-count-params", "forgets the bias", """
        return n_in * units
        """, "count the bias"),
    Wrong("ch03-count-params", "a bias even without use_bias", """
        return n_in * units + units
        """, "no bias"),
    Wrong("ch03-count-params", "a bias per input", """
        return n_in * units + (n_in if use_bias else 0)
        """, "one bias per unit"),
    Own("ch03-count-params", """
        layer = keras.layers.Dense(units, use_bias=use_bias)
        layer.build((None, n_in))
        return layer.count_params()
        """, "Dense.build"),
    Wrong("ch03-scale-layer", "zeros, not ones", """
        self.scale = self.add_weight(
            shape=(input_shape[-1],), initializer="zeros", name="scale"
        )
        """, "not at ones"),
    Wrong("ch03-scale-layer", "the shape of the whole input", """
        self.scale = self.add_weight(
            shape=tuple(input_shape), initializer="ones", name="scale"
        )
        """, "one weight per feature"),
    Wrong("ch03-scale-layer", "no name", """
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones")
        """, "name='scale'"),
    Wrong("ch03-scale-layer", "not trainable", """
        self.scale = self.add_weight(
            shape=(input_shape[-1],), initializer="ones", name="scale",
            trainable=False,
        )
        """, "not trainable"),
    Wrong("ch03-sample-counter", "overwrites the count", """
        self.seen.assign(inputs.shape[0])
        return inputs
        """, "do not overwrite"),
    Wrong("ch03-sample-counter", "counts the calls", """
        self.seen.assign_add(1)
        return inputs
        """, "counts the calls"),
    Wrong("ch03-sample-counter", "counts the features", """
        self.seen.assign_add(inputs.shape[-1])
        return inputs
        """, "number of features"),
    Wrong("ch03-sample-counter", "a Python attribute", """
        self.count = getattr(self, "count", 0) + inputs.shape[0]
        return inputs
        """, "Python attribute"),
    Wrong("ch03-sample-counter", "forgets to return", """
        self.seen.assign_add(inputs.shape[0])
        """, "should return a Tensor.*not None", error=ValueError),
    Own("ch03-add-weight", """
        return layer.add_weight(shape=shape, initializer=initializer, dtype=dtype,
                                trainable=trainable, name=name)
        """, "Layer.add_weight"),
    Wrong("ch03-add-weight", "no name scope", """
        dtype = dtype or layer.dtype
        if initializer is None:
            initializer = "glorot_uniform" if "float" in dtype else "zeros"
        variable = keras.Variable(keras.initializers.get(initializer), shape=shape,
                                  dtype=dtype, trainable=trainable, name=name)
        if trainable:
            layer._trainable_weights.append(variable)
        else:
            layer._non_trainable_weights.append(variable)
        return variable
        """, "name_scope"),
    Wrong("ch03-add-weight", "the trainable flag forgotten", """
        dtype = dtype or layer.dtype
        if initializer is None:
            initializer = "glorot_uniform" if "float" in dtype else "zeros"
        with keras.backend.name_scope(layer.name, caller=layer):
            variable = keras.Variable(keras.initializers.get(initializer),
                                      shape=shape, dtype=dtype, name=name)
        if trainable:
            layer._trainable_weights.append(variable)
        else:
            layer._non_trainable_weights.append(variable)
        return variable
        """, "trainable=False"),
    Wrong("ch03-add-weight", "float32 whatever the layer", """
        dtype = dtype or "float32"
        if initializer is None:
            initializer = "glorot_uniform" if "float" in dtype else "zeros"
        with keras.backend.name_scope(layer.name, caller=layer):
            variable = keras.Variable(keras.initializers.get(initializer),
                                      shape=shape, dtype=dtype,
                                      trainable=trainable, name=name)
        if trainable:
            layer._trainable_weights.append(variable)
        else:
            layer._non_trainable_weights.append(variable)
        return variable
        """, "defaults to the layer's"),
    Wrong("ch03-add-weight", "zeros for every dtype", """
        dtype = dtype or layer.dtype
        with keras.backend.name_scope(layer.name, caller=layer):
            variable = keras.Variable(keras.initializers.get(initializer or "zeros"),
                                      shape=shape, dtype=dtype,
                                      trainable=trainable, name=name)
        if trainable:
            layer._trainable_weights.append(variable)
        else:
            layer._non_trainable_weights.append(variable)
        return variable
        """, "glorot_uniform"),
]


# --------------------------------------------------------------------------
# Chapter 4

WRONG += [
    Wrong("ch04-image-spec", "the rank only", """
        return InputSpec(ndim=4)
        """, "channel"),
    Wrong("ch04-image-spec", "a minimum rank", """
        return InputSpec(min_ndim=4, axes={-1: channels})
        """, "rank 5"),
    Wrong("ch04-image-spec", "channels first", """
        return InputSpec(ndim=4, axes={1: channels})
        """, "refuses"),
    Wrong("ch04-image-spec", "a fixed shape", """
        return InputSpec(shape=(2, 8, 8, channels))
        """, "any batch size, height"),
    Wrong("ch04-center-layer", "a trainable mean", """
        features = input_shape[-1]
        self.mean = self.add_weight(shape=(features,), initializer="zeros",
                                    name="mean")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: features})
        """, "trainable=False"),
    Wrong("ch04-center-layer", "no input spec", """
        self.mean = self.add_weight(shape=(input_shape[-1],), initializer="zeros",
                                    trainable=False, name="mean")
        """, "Set self.input_spec"),
    Wrong("ch04-center-layer", "the whole shape fixed", """
        self.mean = self.add_weight(shape=(input_shape[-1],), initializer="zeros",
                                    trainable=False, name="mean")
        self.input_spec = InputSpec(shape=tuple(input_shape))
        """, "batch of 3"),
    Wrong("ch04-center-layer", "a mean of ones", """
        features = input_shape[-1]
        self.mean = self.add_weight(shape=(features,), initializer="ones",
                                    trainable=False, name="mean")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: features})
        """, "starts at zeros"),
    Wrong("ch04-count-builds", "counts every frame", """
        with trace() as t:
            for batch in batches:
                layer(batch)
        return len(t.frames)
        """, "exactly 'build'"),
    Wrong("ch04-count-builds", "counts names that contain build", """
        with trace() as t:
            for batch in batches:
                layer(batch)
        return sum(1 for frame in t.frames if "build" in frame.name)
        """, "exactly 'build'"),
    Wrong("ch04-count-builds", "counts the calls", """
        for batch in batches:
            layer(batch)
        return len(batches)
        """, "build"),
    Wrong("ch04-count-builds", "whether it built, not how often", """
        with trace() as t:
            for batch in batches:
                layer(batch)
        return any(frame.name == "build" for frame in t.frames)
        """, "expected 3 build.*got True"),
    Own("ch04-maybe-build", """
        keras.Layer._maybe_build(layer, inputs)
        """, "Layer._maybe_build"),
    Wrong("ch04-maybe-build", "builds at every call", """
        shapes = keras.tree.map_structure(lambda x: tuple(x.shape), inputs)
        layer.build(shapes)
        if layer._initial_weights is not None:
            layer.set_weights(layer._initial_weights)
            layer._initial_weights = None
        """, "build ran 2 times"),
    Wrong("ch04-maybe-build", "the inputs instead of their shape", """
        if layer.built:
            return
        layer.build(inputs)
        if layer._initial_weights is not None:
            layer.set_weights(layer._initial_weights)
            layer._initial_weights = None
        """, "not a shape"),
    Wrong("ch04-maybe-build", "the initial weights forgotten", """
        if layer.built:
            return
        layer.build(keras.tree.map_structure(lambda x: tuple(x.shape), inputs))
        """, "weights="),
    Wrong("ch04-maybe-build", "the initial weights kept", """
        if layer.built:
            return
        layer.build(keras.tree.map_structure(lambda x: tuple(x.shape), inputs))
        if layer._initial_weights is not None:
            layer.set_weights(layer._initial_weights)
        """, "forget the initial weights"),
    Wrong("ch04-maybe-build", "one shape for a list of inputs", """
        if layer.built:
            return
        layer.build(tuple(inputs.shape))
        if layer._initial_weights is not None:
            layer.set_weights(layer._initial_weights)
            layer._initial_weights = None
        """, "list of shapes"),
]


# --------------------------------------------------------------------------
# Chapter 5

PIPELINE = """
    inputs, rest, kwargs = layer._split_inputs(args, kwargs)
    symbolic = any_symbolic(inputs, rest, kwargs)
    {convert}
    layer._check_positional_args(rest)
    {spec}
    layer._maybe_build(inputs)
    {late_spec}
    training_passed = kwargs.get("training") is not None
    training = layer._resolve_training(kwargs)
    {scope}
    if symbolic:
        {record}
    return outputs
    """


def pipeline(convert="if not symbolic:\n        inputs = layer._convert_inputs(inputs)",
             spec="assert_input_compatibility(layer.input_spec, inputs, layer.name)",
             late_spec="",
             scope="with call_context.scope(layer, training):\n"
                   "        outputs = layer._call_layer(inputs, rest, kwargs, symbolic)",
             record="layer._record_node(inputs, rest, kwargs, training_passed, "
                    "outputs)"):
    return PIPELINE.format(convert=convert, spec=spec, late_spec=late_spec,
                           scope=scope, record=record)


WRONG += [
    Wrong("ch05-resolve-training", "or-chain", """
        return explicit or outer or default
        """, "explicit False must win"),
    Wrong("ch05-resolve-training", "the default before the outer call", """
        if explicit is not None:
            return explicit
        if default is not None:
            return default
        return outer
        """, "outer call's value beats the signature's default"),
    Wrong("ch05-resolve-training", "False when nothing is given", """
        if explicit is not None:
            return explicit
        if outer is not None:
            return outer
        return bool(default)
        """, "result is None"),
    Wrong("ch05-resolve-training", "the outer call ignored", """
        return default if explicit is None else explicit
        """, "outer call"),
    Wrong("ch05-output-shape", "every dimension doubled", """
        return tuple(None if d is None else 2 * d for d in input_shape)
        """, "only the last dimension"),
    Wrong("ch05-output-shape", "None doubled", """
        return tuple(input_shape[:-1]) + (2 * input_shape[-1],)
        """, "None stays None"),
    Wrong("ch05-output-shape", "the input shape unchanged", """
        return tuple(input_shape)
        """, "last dimension doubles"),
    Wrong("ch05-output-shape", "a dry run after all", """
        probe = np.zeros([1 if d is None else d for d in input_shape], "float32")
        return tuple(self.call(probe).shape)
        """, "without calling `call`"),
    Wrong("ch05-noise-layer", "always adds", """
        return keras.ops.add(inputs, 1.0)
        """, "called without `training`"),
    Wrong("ch05-noise-layer", "adds whenever training is given", """
        if training is not None:
            return keras.ops.add(inputs, 1.0)
        return inputs
        """, "called without `training`"),
    Wrong("ch05-noise-layer", "the layer's trainable flag", """
        if self.trainable:
            return keras.ops.add(inputs, 1.0)
        return inputs
        """, "called without `training`"),
    Wrong("ch05-noise-layer", "training ignored", """
        return inputs
        """, "training=True the layer should add 1"),
    Own("ch05-call-pipeline", """
        return keras.Layer.__call__(layer, *args, **kwargs)
        """, "Layer.__call__"),
    Wrong("ch05-call-pipeline", "inputs not converted", pipeline(convert=""),
          "cast to the layer's float32|list should be refused"),
    Wrong("ch05-call-pipeline", "no input spec check", pipeline(spec=""),
          "rank-1 input should be refused"),
    Wrong("ch05-call-pipeline", "the spec checked after build",
          pipeline(spec="", late_spec="assert_input_compatibility("
                   "layer.input_spec, inputs, layer.name)"),
          "before build"),
    Wrong("ch05-call-pipeline", "no call context",
          pipeline(scope="outputs = layer._call_layer(inputs, rest, kwargs, "
                   "symbolic)"), "call_context.scope"),
    Wrong("ch05-call-pipeline", "no node recorded", pipeline(record="pass"),
          "record a Node"),
]


# --------------------------------------------------------------------------
# Chapter 6

WRONG += [
    Wrong("ch06-history-chain", "always node 0", """
        names = []
        while True:
            layer = tensor._keras_history[0]
            names.append(layer.name)
            node = layer._inbound_nodes[0]
            if node.is_input:
                return names
            tensor = node.keras_inputs[0]
        """, "node_index"),
    Wrong("ch06-history-chain", "stops before the input", """
        names = []
        while True:
            layer, node_index, _ = tensor._keras_history
            node = layer._inbound_nodes[node_index]
            if node.is_input:
                return names
            names.append(layer.name)
            tensor = node.keras_inputs[0]
        """, "end at the InputLayer"),
    Wrong("ch06-history-chain", "input first", """
        names = []
        while True:
            layer, node_index, _ = tensor._keras_history
            names.insert(0, layer.name)
            node = layer._inbound_nodes[node_index]
            if node.is_input:
                return names
            tensor = node.keras_inputs[0]
        """, "producer of the tensor comes first"),
    Wrong("ch06-connected-to", "node index always 0", """
        return [[f"{layer_.name}[0][{t}]" for layer_, _, t, _ in node.iterate_inbound()]
                for node in layer._inbound_nodes]
        """, "middle index is the node_index"),
    Wrong("ch06-connected-to", "tensor index always 0", """
        return [[f"{layer_.name}[{n}][0]" for layer_, n, _, _ in node.iterate_inbound()]
                for node in layer._inbound_nodes]
        """, "last index is the tensor_index"),
    Wrong("ch06-connected-to", "one flat list", """
        return [f"{layer_.name}[{n}][{t}]" for node in layer._inbound_nodes
                for layer_, n, t, _ in node.iterate_inbound()]
        """, "one list per node"),
    Wrong("ch06-upstream", "only the first parent", """
        layer, node_index, _ = tensor._keras_history
        node = layer._inbound_nodes[node_index]
        names = {node.layer.name}
        while node.parent_nodes:
            node = node.parent_nodes[0]
            names.add(node.layer.name)
        return names
        """, "follow every parent node"),
    Wrong("ch06-upstream", "every node of a layer", """
        names, stack, seen = set(), [tensor._keras_history[0]], set()
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            names.add(layer.name)
            for node in layer._inbound_nodes:
                stack.extend(parent.layer for parent in node.parent_nodes)
        return names
        """, "not every node of a shared layer"),
    Wrong("ch06-upstream", "the inputs left out", """
        layer, node_index, _ = tensor._keras_history
        stack, names = [layer._inbound_nodes[node_index]], set()
        while stack:
            node = stack.pop()
            if not node.is_input:
                names.add(node.layer.name)
            stack.extend(node.parent_nodes)
        return names
        """, "missing"),
    Own("ch06-node", """
        Node.__init__(self, layer, call_args, call_kwargs, outputs)
        """, "Node.__init__"),
    Wrong("ch06-node", "no inbound node", """
        for tensor in self.keras_inputs:
            tensor._keras_history.layer._outbound_nodes.append(self)
        for tensor_index, out in enumerate(self.outputs):
            out._keras_history = KerasHistory(layer, 0, tensor_index)
        """, "append the node to layer._inbound_nodes"),
    Wrong("ch06-node", "no outbound nodes", """
        layer._inbound_nodes.append(self)
        node_index = len(layer._inbound_nodes) - 1
        for tensor_index, out in enumerate(self.outputs):
            out._keras_history = KerasHistory(layer, node_index, tensor_index)
        """, "_outbound_nodes"),
    Wrong("ch06-node", "node index always 0", """
        layer._inbound_nodes.append(self)
        for tensor in self.keras_inputs:
            tensor._keras_history.layer._outbound_nodes.append(self)
        for tensor_index, out in enumerate(self.outputs):
            out._keras_history = KerasHistory(layer, 0, tensor_index)
        """, "node 1"),
    Wrong("ch06-node", "tensor index always 0", """
        layer._inbound_nodes.append(self)
        for tensor in self.keras_inputs:
            tensor._keras_history.layer._outbound_nodes.append(self)
        node_index = len(layer._inbound_nodes) - 1
        for out in self.outputs:
            out._keras_history = KerasHistory(layer, node_index, 0)
        """, "tensor_index"),
    Wrong("ch06-node", "a plain tuple", """
        layer._inbound_nodes.append(self)
        for tensor in self.keras_inputs:
            tensor._keras_history.layer._outbound_nodes.append(self)
        node_index = len(layer._inbound_nodes) - 1
        for tensor_index, out in enumerate(self.outputs):
            out._keras_history = (layer, node_index, tensor_index)
        """, "make it KerasHistory"),
]


# --------------------------------------------------------------------------
# Chapter 7

WRONG += [
    Own("ch07-depths", """
        return {n.layer.name: d for d, ns in model._nodes_by_depth.items() for n in ns}
        """, "model._nodes_by_depth"),
    Own("ch07-depths", """
        _, by_depth, _, _ = map_graph(model.inputs, model.outputs)
        return {n.layer.name: d for d, ns in by_depth.items() for n in ns}
        """, "map_graph"),
    Wrong("ch07-depths", "the first depth met, not the largest", """
        depth = {}
        stack = [(t._keras_history.layer._inbound_nodes[t._keras_history.node_index],
                  0) for t in model.outputs]
        while stack:
            node, d = stack.pop(0)
            if node in depth:
                continue
            depth[node] = d
            if node.layer in [t._keras_history.layer for t in model.inputs]:
                continue
            stack += [(parent, d + 1) for parent in node.parent_nodes]
        return {node.layer.name: d for node, d in depth.items()}
        """, "largest depth"),
    Wrong("ch07-depths", "depth counted from the inputs", """
        depth = {}
        def visit(node):
            if node not in depth:
                parents = node.parent_nodes
                depth[node] = 1 + max(map(visit, parents)) if parents else 0
            return depth[node]
        for t in model.outputs:
            layer, index, _ = t._keras_history
            visit(layer._inbound_nodes[index])
        return {node.layer.name: d for node, d in depth.items()}
        """, "wrong depths"),
    Wrong("ch07-extractor", "the whole model again", """
        return keras.Model(model.inputs, model.outputs)
        """, "should stop at"),
    Wrong("ch07-extractor", "the layer's input", """
        return keras.Model(model.inputs, model.get_layer(layer_name).input)
        """, "end the new model at that layer's output"),
    Wrong("ch07-extractor", "copied layers", """
        copy = keras.models.clone_model(model)
        return keras.Model(copy.inputs, copy.get_layer(layer_name).output)
        """, "reuse the model's layers"),
    Wrong("ch07-two-heads", "lists, not dicts", """
        image = keras.Input(shape=(8,), name="image")
        meta = keras.Input(shape=(2,), name="meta")
        code = keras.layers.Dense(3)(image)
        score = keras.layers.Dense(1)(keras.layers.Concatenate()([code, meta]))
        return keras.Model([image, meta], [score, code])
        """, "refused the dict|dict of outputs"),
    Wrong("ch07-two-heads", "code depends on meta too", """
        image = keras.Input(shape=(8,), name="image")
        meta = keras.Input(shape=(2,), name="meta")
        both = keras.layers.Concatenate()([image, meta])
        code = keras.layers.Dense(3)(both)
        score = keras.layers.Dense(1)(both)
        return keras.Model({"image": image, "meta": meta},
                           {"score": score, "code": code})
        """, "code should not depend on meta"),
    Wrong("ch07-two-heads", "score ignores meta", """
        image = keras.Input(shape=(8,), name="image")
        meta = keras.Input(shape=(2,), name="meta")
        code = keras.layers.Dense(3)(image)
        score = keras.layers.Dense(1)(code)
        return keras.Model({"image": image, "meta": meta},
                           {"score": score, "code": code})
        """, "score should depend on meta"),
    Wrong("ch07-two-heads", "the heads swapped", """
        image = keras.Input(shape=(8,), name="image")
        meta = keras.Input(shape=(2,), name="meta")
        code = keras.layers.Dense(1)(image)
        score = keras.layers.Dense(3)(keras.layers.Concatenate()([code, meta]))
        return keras.Model({"image": image, "meta": meta},
                           {"score": score, "code": code})
        """, "should have shape"),
    Own("ch07-map-depths", """
        nodes, by_depth, _, _ = map_graph(inputs, outputs)
        return list(nodes), by_depth
        """, "map_graph"),
    Own("ch07-map-depths", """
        model = keras.Model(inputs, outputs)
        return [n for d in sorted(model._nodes_by_depth, reverse=True)
                for n in model._nodes_by_depth[d]], model._nodes_by_depth
        """, "a Functional model (its map_graph)"),
    Wrong("ch07-map-depths", "no depth kept per layer", """
        ordered, seen = [], set()
        def visit(tensor):
            layer, node_index, _ = tensor._keras_history
            node = layer._inbound_nodes[node_index]
            if id(node) in seen:
                return
            seen.add(id(node))
            for parent_tensor in node.keras_inputs:
                visit(parent_tensor)
            ordered.append(node)
        for tensor in outputs:
            visit(tensor)
        node_depth = {}
        for node in reversed(ordered):
            depth = node_depth.setdefault(node, 0)
            for parent in node.parent_nodes:
                node_depth[parent] = max(node_depth.get(parent, 0), depth + 1)
        nodes_by_depth = {}
        for node in ordered:
            nodes_by_depth.setdefault(node_depth[node], []).append(node)
        return ordered, nodes_by_depth
        """, "must not sit below its earlier one"),
    Wrong("ch07-map-depths", "children before parents", """
        ordered, seen = [], set()
        def visit(tensor):
            layer, node_index, _ = tensor._keras_history
            node = layer._inbound_nodes[node_index]
            if id(node) in seen:
                return
            seen.add(id(node))
            ordered.append(node)
            for parent_tensor in node.keras_inputs:
                visit(parent_tensor)
        for tensor in outputs:
            visit(tensor)
        node_depth, layer_depth = {}, {}
        for node in ordered:
            depth = max(node_depth.get(node, 0), layer_depth.get(node.layer, 0))
            node_depth[node] = layer_depth[node.layer] = depth
            for parent in node.parent_nodes:
                node_depth[parent] = max(node_depth.get(parent, 0), depth + 1)
        nodes_by_depth = {}
        for node in ordered:
            nodes_by_depth.setdefault(node_depth[node], []).append(node)
        return ordered, nodes_by_depth
        """, "comes after its child"),
    Wrong("ch07-map-depths", "a node visited twice", """
        ordered = []
        def visit(tensor):
            layer, node_index, _ = tensor._keras_history
            node = layer._inbound_nodes[node_index]
            for parent_tensor in node.keras_inputs:
                visit(parent_tensor)
            ordered.append(node)
        for tensor in outputs:
            visit(tensor)
        node_depth, layer_depth = {}, {}
        for node in reversed(ordered):
            depth = max(node_depth.get(node, 0), layer_depth.get(node.layer, 0))
            node_depth[node] = layer_depth[node.layer] = depth
            for parent in node.parent_nodes:
                node_depth[parent] = max(node_depth.get(parent, 0), depth + 1)
        nodes_by_depth = {}
        for node in dict.fromkeys(ordered):
            nodes_by_depth.setdefault(node_depth[node], []).append(node)
        return ordered, nodes_by_depth
        """, "appears twice"),
]


def test_the_hand_worked_depths_of_chapter_7_are_kerasminis():
    ch07 = importlib.import_module("kerasmini.book.exercises.ch07")
    for model, depths in ch07._models():
        assert {n.layer.name: d for d, ns in model._nodes_by_depth.items()
                for n in ns} == depths
    map_graph = _support.own("map_graph")
    for name, inputs, outputs, want in ch07._graphs():
        _, by_depth, _, _ = map_graph(inputs, outputs)
        assert ch07._show(by_depth) == want, name


# --------------------------------------------------------------------------
# Chapter 8

CHAIN = """
    inputs = {make_input}
    x = inputs
    for layer in layers:
        x = {call}
        {refuse}
    return keras.Model(inputs, x, name={name})
    """


def chain(make_input="keras.Input(batch_shape=batch_shape)", call="layer(x)",
          refuse="if len(keras.tree.flatten(x)) != 1:\n"
                 "            raise ValueError('one output per layer')",
          name="name"):
    return CHAIN.format(make_input=make_input, call=call, refuse=refuse, name=name)


WRONG += [
    Wrong("ch08-owner", "the class, not its name", """
        for klass in cls.__mro__:
            if name in vars(klass):
                return klass
        return None
        """, "return its name"),
    Wrong("ch08-owner", "hasattr sees inherited attributes", """
        for klass in cls.__mro__:
            if hasattr(klass, name):
                return klass.__name__
        return None
        """, "own __dict__"),
    Wrong("ch08-owner", "the MRO walked backwards", """
        for klass in reversed(cls.__mro__):
            if name in vars(klass):
                return klass.__name__
        return None
        """, "finds first"),
    Wrong("ch08-owner", "the class's own name when nothing has it", """
        for klass in cls.__mro__:
            if name in vars(klass):
                return klass.__name__
        return cls.__name__
        """, "return None"),
    Wrong("ch08-count-params", "forgets the biases", """
        return sum(n_in * n_out for n_in, n_out in zip(sizes, sizes[1:]))
        """, "count the biases"),
    Wrong("ch08-count-params", "a bias per input", """
        return sum(n_in * n_out + n_in for n_in, n_out in zip(sizes, sizes[1:]))
        """, "one bias per unit"),
    Wrong("ch08-count-params", "only the first layer", """
        return sizes[0] * sizes[1] + sizes[1]
        """, "expected"),
    Own("ch08-count-params", """
        stack = keras.Sequential([keras.Input((sizes[0],))]
                                 + [keras.layers.Dense(n) for n in sizes[1:]])
        return stack.count_params()
        """, "Dense.build"),
    Wrong("ch08-two-towers", "layers made in call", ["pass", """
        left = keras.layers.Dense(4, activation="relu")
        right = keras.layers.Dense(4, activation="relu")
        both = keras.layers.Concatenate()([left(inputs), right(inputs)])
        return keras.layers.Dense(1)(both)
        """], "create every layer in __init__"),
    Wrong("ch08-two-towers", "towers without relu", ["""
        self.left = keras.layers.Dense(4)
        self.right = keras.layers.Dense(4)
        self.concat = keras.layers.Concatenate()
        self.head = keras.layers.Dense(1)
        """, """
        return self.head(self.concat([self.left(inputs), self.right(inputs)]))
        """], "without the towers' relu"),
    Wrong("ch08-two-towers", "one tower used twice", ["""
        self.left = keras.layers.Dense(4, activation="relu")
        self.concat = keras.layers.Concatenate()
        self.head = keras.layers.Dense(1)
        """, """
        return self.head(self.concat([self.left(inputs), self.left(inputs)]))
        """], "3 Dense layers"),
    Wrong("ch08-two-towers", "added, not concatenated", ["""
        self.left = keras.layers.Dense(4, activation="relu")
        self.right = keras.layers.Dense(4, activation="relu")
        self.concat = keras.layers.Add()
        self.head = keras.layers.Dense(1)
        """, """
        return self.head(self.concat([self.left(inputs), self.right(inputs)]))
        """], "1 Concatenate"),
    Own("ch08-chain-model", """
        return keras.Sequential([keras.Input(batch_shape=batch_shape), *layers],
                                name=name)
        """, "Sequential"),
    Wrong("ch08-chain-model", "shape, not batch_shape",
          chain(make_input="keras.Input(shape=batch_shape)"),
          "batch_shape"),
    Wrong("ch08-chain-model", "two outputs let through", chain(refuse="pass"),
          "two outputs should be refused"),
    Wrong("ch08-chain-model", "every layer on the input", chain(call="layer(inputs)"),
          "previous one's output"),
    Wrong("ch08-chain-model", "the name forgotten", chain(name="None"),
          "named 'chain'"),
]


# --------------------------------------------------------------------------
# Chapter 9

BROADCAST = """
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + tuple(a)
    b = (1,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        {rule}
    return tuple(out)
    """

RIGHT_RULE = """if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        else:
            raise ValueError(f"cannot broadcast {x} and {y}")"""

WRONG += [
    Wrong("ch09-op-class", "squares", """
        def call(self, x):
            return ops.power(x, 2)

        def compute_output_spec(self, x):
            return keras.KerasTensor(x.shape, x.dtype)
        """, "expected"),
    Wrong("ch09-op-class", "the input returned as the spec", """
        def call(self, x):
            return ops.power(x, 3)

        def compute_output_spec(self, x):
            return x
        """, "returned its input"),
    Wrong("ch09-op-class", "a fixed dtype", """
        def call(self, x):
            return ops.power(x, 3)

        def compute_output_spec(self, x):
            return keras.KerasTensor(x.shape, "float32")
        """, "keep the dtype"),
    Wrong("ch09-op-class", "Operation.__init__ skipped", """
        def __init__(self):
            self.power = 3

        def call(self, x):
            return ops.power(x, self.power)

        def compute_output_spec(self, x):
            return keras.KerasTensor(x.shape, x.dtype)
        """, "super().__init__()|node", error=Exception),
    Wrong("ch09-broadcast", "None always wins",
          BROADCAST.replace("{rule}", RIGHT_RULE.replace(
              "if x == 1:", "if x is None or y is None:\n"
              "            out.append(None)\n        elif x == 1:")),
          "None with a known size k"),
    Wrong("ch09-broadcast", "a 1 against None gives 1",
          BROADCAST.replace("{rule}", RIGHT_RULE.replace(
              "if x == 1:", "if x == 1 and y is None or y == 1 and x is None:\n"
              "            out.append(1)\n        elif x == 1:")),
          "a 1 takes the other size"),
    Wrong("ch09-broadcast", "aligned from the left", """
        a, b = tuple(a), tuple(b)
        n = max(len(a), len(b))
        a, b = a + (1,) * (n - len(a)), b + (1,) * (n - len(b))
        out = []
        for x, y in zip(a, b):
            if x == 1:
                out.append(y)
            elif y == 1 or x == y:
                out.append(x)
            elif x is None or y is None:
                out.append(x if y is None else y)
            else:
                raise ValueError(f"cannot broadcast {x} and {y}")
        return tuple(out)
        """, "align the shapes from the right"),
    Wrong("ch09-broadcast", "the larger size, never an error",
          BROADCAST.replace("{rule}", RIGHT_RULE.replace(
              'raise ValueError(f"cannot broadcast {x} and {y}")',
              "out.append(max(x, y))")),
          "do not broadcast"),
    Wrong("ch09-broadcast", "zip without padding", """
        out = []
        for x, y in zip(reversed(a), reversed(b)):
            if x == 1:
                out.append(y)
            elif y == 1 or x == y:
                out.append(x)
            elif x is None or y is None:
                out.append(x if y is None else y)
            else:
                raise ValueError(f"cannot broadcast {x} and {y}")
        return tuple(reversed(out))
        """, "rank of the longer shape"),
    Own("ch09-broadcast", """
        from kerasmini.ops.shapes import broadcast_shapes
        return broadcast_shapes(a, b)
        """, "broadcast_shapes"),
    Wrong("ch09-op-nodes", "the layers kept too", """
        return [op.name for op in model.operations]
        """, "are layers"),
    Wrong("ch09-op-nodes", "class names", """
        return [type(op).__name__ for op in model.operations
                if not isinstance(op, keras.Layer)]
        """, "expected"),
    Wrong("ch09-op-nodes", "the operations themselves", """
        return [op for op in model.operations if not isinstance(op, keras.Layer)]
        """, "return the operations' names"),
    Wrong("ch09-op-nodes", "from the output back", """
        return [op.name for op in reversed(model.operations)
                if not isinstance(op, keras.Layer)]
        """, "keep the order"),
]


def test_the_hand_worked_broadcasts_of_chapter_9_are_kerasminis():
    ch09 = importlib.import_module("kerasmini.book.exercises.ch09")
    broadcast_shapes = _support.own("broadcast_shapes")
    for a, b in [((None,), (3,)), ((3,), (None,)), ((None,), (1,)), ((1,), (None,)),
                 ((None, 3), (None, 3)), ((None, 1, 3), (4, 1)), ((5,), (None, 1)),
                 ((4, None), (4, 7)), ((None, 1), (2, None)), ((None, None), (1, 6))]:
        assert ch09._broadcast_by_hand(a, b) == broadcast_shapes(a, b), (a, b)


# --------------------------------------------------------------------------
# Chapter 10

UNBROADCAST = """
    g = np.asarray(g)
    while g.ndim > len(shape):
        g = g.{reduce}(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and g.shape[axis] != 1:
            g = g.{reduce}(axis=axis, keepdims={keepdims})
    return g
    """

WRONG += [
    Wrong("ch10-cube-rule", "the incoming gradient ignored", """
        cube.defvjp(lambda g, ans, x: ops.multiply(3.0, ops.square(x)))
        """, "multiply by the incoming gradient g"),
    Wrong("ch10-cube-rule", "the output instead of the input", """
        cube.defvjp(lambda g, ans, x: ops.multiply(g, ops.multiply(3.0,
                                                               ops.square(ans))))
        """, "the rule is g \\* 3 x\\^2"),
    Wrong("ch10-cube-rule", "the power rule forgotten", """
        cube.defvjp(lambda g, ans, x: ops.multiply(g, ops.square(x)))
        """, "the rule is g \\* 3 x\\^2"),
    Wrong("ch10-cube-rule", "NumPy in the rule", """
        cube.defvjp(lambda g, ans, x: np.multiply(g, 3.0 * np.square(x)))
        """, "not NumPy"),
    Own("ch10-unbroadcast", """
        return keras.backend.numpy.unbroadcast(g, shape)
        """, "backend.numpy.unbroadcast"),
    Wrong("ch10-unbroadcast", "size-1 axes left alone", """
        g = np.asarray(g)
        while g.ndim > len(shape):
            g = g.sum(axis=0)
        return g
        """, "got shape"),
    Wrong("ch10-unbroadcast", "keepdims forgotten",
          UNBROADCAST.format(reduce="sum", keepdims="False"),
          "keepdims=True|got shape"),
    Wrong("ch10-unbroadcast", "means, not sums",
          UNBROADCAST.format(reduce="mean", keepdims="True"), "means, not sums"),
    Wrong("ch10-live-records", "the sources only", """
        return [i for i, rec in enumerate(tape.records)
                if any(arg is s for arg in rec.args for s in sources)]
        """, "out of an earlier live record"),
    Wrong("ch10-live-records", "everything after the first live record", """
        reach = {id(s) for s in sources}
        for index, record in enumerate(tape.records):
            if any(id(arg) in reach for arg in record.args):
                return list(range(index, len(tape.records)))
        return []
        """, "is not live"),
    Wrong("ch10-live-records", "records compared by position", """
        return list(range(len(sources), len(tape.records)))
        """, "expected"),
]


# --------------------------------------------------------------------------
# Chapter 11

LOOP = """
    total, count, losses = 0.0, 0, []
    for start in range(0, {stop}, batch_size):
        batch_x = x[start:start + batch_size]
        batch_y = y[start:start + batch_size]
        with keras.GradientTape() as tape:
            y_pred = model(batch_x, training=True)
            loss = model.compute_loss(batch_x, batch_y, y_pred)
        weights = model.trainable_weights
        gradients = tape.gradient(loss, weights)
        model.optimizer.apply_gradients(zip(gradients, weights))
        losses.append(float(loss))
        total += float(loss) * len(batch_x)
        count += len(batch_x)
    return {result}
    """


def loop(stop="len(x)", result="total / count"):
    return LOOP.format(stop=stop, result=result)


WRONG += [
    Wrong("ch11-step-counter", "counts but never trains", """
        self.steps.assign_add(1)
        return {"loss": 0.0}
        """, "did not train"),
    Wrong("ch11-step-counter", "a Python counter", """
        self.python_steps = getattr(self, "python_steps", 0) + 1
        return super().train_step(data)
        """, "count in the variable"),
    Wrong("ch11-step-counter", "the variable set from Python", """
        self.steps.assign(int(self.steps.numpy()) + 1)
        return super().train_step(data)
        """, "count in the variable|12 steps"),
    Wrong("ch11-step-counter", "two steps per batch", """
        self.steps.assign_add(1)
        super().train_step(data)
        return super().train_step(data)
        """, "once per batch"),
    Wrong("ch11-own-loop", "a plain mean of the batch losses",
          loop(result="sum(losses) / len(losses)"), "weighted by its batch's size"),
    Wrong("ch11-own-loop", "the last short batch dropped",
          loop(stop="len(x) - len(x) % batch_size"), "make 5 steps"),
    Wrong("ch11-own-loop", "the last batch's loss", loop(result="losses[-1]"),
          "weighted by its batch's size"),
    Own("ch11-own-loop", """
        history = model.fit(x, y, batch_size=batch_size, epochs=1, shuffle=False,
                            verbose=0)
        return history.history["loss"][0]
        """, "Model.fit"),
    Wrong("ch11-own-loop", "shuffled batches", textwrap.dedent("""
        order = np.random.default_rng(0).permutation(len(x))
        x, y = x[order], y[order]
        """) + textwrap.dedent(loop()), "same batches, in order"),
    Wrong("ch11-stop-at-loss", "stop_training on the callback", """
        if logs["loss"] < self.threshold:
            self.stop_training = True
        """, "self.model.stop_training"),
    Wrong("ch11-stop-at-loss", "the comparison reversed", """
        if logs["loss"] > self.threshold:
            self.model.stop_training = True
        """, "not below"),
    Wrong("ch11-stop-at-loss", "a threshold of its own", """
        if logs["loss"] < 0.5:
            self.model.stop_training = True
        """, "threshold 2.0"),
    Wrong("ch11-stop-at-loss", "one epoch late", """
        if getattr(self, "below", False):
            self.model.stop_training = True
        self.below = logs["loss"] < self.threshold
        """, "stop at the first one"),
]


# --------------------------------------------------------------------------
# Chapter 12

MOMENTUM_BUILD = """
    self.velocities = self.add_optimizer_variables(var_list, "velocity")
    """
MOMENTUM_STEP = """
    velocity = self.velocities[self._get_variable_index(variable)]
    velocity.assign({velocity})
    variable.assign_add({step})
    """


def momentum(velocity="ops.subtract(ops.multiply(velocity, self.momentum), "
                      "ops.multiply(gradient, learning_rate))",
             step="velocity"):
    return [MOMENTUM_BUILD, MOMENTUM_STEP.format(velocity=velocity, step=step)]


WRONG += [
    Wrong("ch12-momentum", "NumPy on the side", ["""
        self.numpy_velocity = {}
        """, """
        key = id(variable)
        old = self.numpy_velocity.get(key, np.zeros(variable.shape, "float32"))
        new = self.momentum * old - np.asarray(learning_rate) * np.asarray(gradient)
        self.numpy_velocity[key] = new
        variable.assign_add(new)
        """], "slot variable named|fit traces update_step"),
    Wrong("ch12-momentum", "NumPy on the side, with the slot", ["""
        self.velocities = self.add_optimizer_variables(var_list, "velocity")
        """, """
        velocity = self.velocities[self._get_variable_index(variable)]
        new = (self.momentum * velocity.numpy()
               - np.asarray(learning_rate) * np.asarray(gradient))
        velocity.assign(new)
        variable.assign_add(new)
        """], "fit traces update_step"),
    Wrong("ch12-momentum", "plain SGD", momentum(
        velocity="ops.multiply(gradient, -learning_rate)"), "plain SGD"),
    Wrong("ch12-momentum", "the gradient added", momentum(
        velocity="ops.add(ops.multiply(velocity, self.momentum), "
                 "ops.multiply(gradient, learning_rate))"), "velocity = momentum"),
    Wrong("ch12-momentum", "the old velocity applied", momentum(
        step="ops.subtract(ops.divide(ops.add(velocity, ops.multiply(gradient, "
             "learning_rate)), self.momentum), 0.0)"), "velocity = momentum"),
    Own("ch12-momentum", ["""
        self._sgd = keras.optimizers.SGD(learning_rate=0.1, momentum=self.momentum)
        self._sgd.build(var_list)
        self.velocities = self.add_optimizer_variables(var_list, "velocity")
        """, """
        self._sgd.update_step(gradient, variable, learning_rate)
        """], "SGD.update_step"),
    Wrong("ch12-logits-xent", "no shift", """
        logits = np.asarray(logits, dtype="float64")
        log_sum = np.log(np.exp(logits).sum(axis=-1, keepdims=True))
        return -np.sum(np.asarray(labels) * (logits - log_sum), axis=-1)
        """, "overflowed"),
    Wrong("ch12-logits-xent", "the log of the softmax", """
        logits = np.asarray(logits, dtype="float64")
        shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
        softmax = shifted / shifted.sum(axis=-1, keepdims=True)
        return -np.sum(np.asarray(labels) * np.log(softmax), axis=-1)
        """, "log of the sum"),
    Wrong("ch12-logits-xent", "one mean for the batch", """
        logits = np.asarray(logits, dtype="float64")
        shifted = logits - logits.max(axis=-1, keepdims=True)
        log_softmax = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
        return -np.mean(np.sum(np.asarray(labels) * log_softmax, axis=-1))
        """, "one loss per row"),
    Wrong("ch12-logits-xent", "the sign", """
        logits = np.asarray(logits, dtype="float64")
        shifted = logits - logits.max(axis=-1, keepdims=True)
        log_softmax = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
        return np.sum(np.asarray(labels) * log_softmax, axis=-1)
        """, "wrong sign"),
    Wrong("ch12-logits-xent", "the label's class only", """
        logits = np.asarray(logits, dtype="float64")
        shifted = logits - logits.max(axis=-1, keepdims=True)
        log_softmax = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
        picked = np.take_along_axis(log_softmax, np.argmax(labels, axis=-1)[:, None],
                                    axis=-1)
        return -picked[:, 0]
        """, "soft labels"),
    Own("ch12-logits-xent", """
        return keras.losses.categorical_crossentropy(labels, logits,
                                                     from_logits=True)
        """, "categorical_crossentropy"),
    Wrong("ch12-rmse-metric", "a mean of batch results", ["""
        error = ops.subtract(y_true, y_pred)
        self.total.assign_add(ops.sqrt(ops.mean(ops.square(error))))
        self.count.assign_add(1.0)
        """, """
        return ops.divide(self.total, ops.maximum(self.count, 1.0))
        """], "not a mean of results"),
    Wrong("ch12-rmse-metric", "no square root", ["""
        error = ops.subtract(y_true, y_pred)
        self.total.assign_add(ops.sum(ops.square(error)))
        self.count.assign_add(float(np.prod(np.shape(error))))
        """, """
        return ops.divide(self.total, ops.maximum(self.count, 1.0))
        """], "square root"),
    Wrong("ch12-rmse-metric", "rows counted, not values", ["""
        error = ops.subtract(y_true, y_pred)
        self.total.assign_add(ops.sum(ops.square(error)))
        self.count.assign_add(float(np.shape(error)[0]))
        """, """
        return ops.sqrt(ops.divide(self.total, ops.maximum(self.count, 1.0)))
        """], "count \\+= number of values"),
    Wrong("ch12-rmse-metric", "0 / 0 before any update", ["""
        error = ops.subtract(y_true, y_pred)
        self.total.assign_add(ops.sum(ops.square(error)))
        self.count.assign_add(float(np.prod(np.shape(error))))
        """, """
        return ops.sqrt(ops.divide(self.total, self.count))
        """], "result is 0"),
]


# --------------------------------------------------------------------------
# Chapter 13

WEIGHTS = """
    with zipfile.ZipFile(keras_file) as archive:
        data = archive.read("model.weights.h5")
    with h5py.File(io.BytesIO(data), "r") as h5file:
        found = []
        h5file.visititems(lambda name, obj: {keep})
    return {result}
    """


def weights(keep="found.append((name, obj.shape)) if isinstance(obj, h5py.Dataset) "
                 "else None", result="sorted(found)"):
    return WEIGHTS.format(keep=keep, result=result)


WRONG += [
    Wrong("ch13-config", "super's config forgotten", """
        return {"low": self.low, "high": self.high}
        """, "start from super"),
    Wrong("ch13-config", "keys that __init__ does not take", """
        return {**super().get_config(), "min": self.low, "max": self.high}
        """, "arguments of Clip.__init__|no 'low'"),
    Wrong("ch13-config", "low and high swapped", """
        return {**super().get_config(), "low": self.high, "high": self.low}
        """, "from_config gave"),
    Wrong("ch13-config", "not registered, so it does not load back", """
        return {**super().get_config(), "low": self.low, "high": self.high}
        """, "register_keras_serializable",
        before="""
        import kerasmini.saving as _saving
        _register = _saving.register_keras_serializable
        _saving.register_keras_serializable = lambda *a, **k: (lambda c: c)
        """),
    Wrong("ch13-config", "the settings as strings", """
        return {**super().get_config(), "low": str(self.low), "high": str(self.high)}
        """, "from_config gave"),
    Wrong("ch13-weight-paths", "groups kept too", weights(
        keep="found.append((name, getattr(obj, 'shape', ())))"), "not datasets"),
    Wrong("ch13-weight-paths", "h5py's absolute names", weights(
        keep="found.append((obj.name, obj.shape)) if isinstance(obj, h5py.Dataset) "
             "else None"), "no leading '/'"),
    Wrong("ch13-weight-paths", "sorted by shape", weights(
        result="sorted(found, key=lambda pair: pair[1])"), "not sorted"),
    Wrong("ch13-weight-paths", "a dict", weights(result="dict(found)"),
          "expected a list"),
    Wrong("ch13-safe-config", "the top level only", """
        return isinstance(config, dict) and config.get("class_name") == "__lambda__"
        """, "however deep"),
    Wrong("ch13-safe-config", "dicts only, not lists", """
        if isinstance(config, dict):
            if config.get("class_name") == "__lambda__":
                return True
            return any(has_lambda(value) for value in config.values())
        return False
        """, "every list item"),
    Wrong("ch13-safe-config", "a text search", """
        return "__lambda__" in json.dumps(config)
        """, "only a dict whose class_name"),
    Wrong("ch13-safe-config", "the Lambda layer's class name", """
        if isinstance(config, dict):
            if config.get("class_name") == "Lambda":
                return True
            return any(has_lambda(value) for value in config.values())
        if isinstance(config, list):
            return any(has_lambda(item) for item in config)
        return False
        """, "only a dict whose class_name|expected True"),
]


# --------------------------------------------------------------------------
# Chapter 14

SMALL_NET = """
    small = keras.Sequential([
        keras.Input({shape}),
        {layers}
    ])
    {compile}
    return small
    """


def small_net(shape="(8, 8, 1)",
              layers="keras.layers.Conv2D(8, 3, activation='relu'),\n"
                     "        keras.layers.MaxPooling2D(2),\n"
                     "        keras.layers.Flatten(),\n"
                     "        keras.layers.Dense(10, activation='softmax'),",
              compile="small.compile(optimizer=keras.optimizers.Adam(learning_rate="
                      "1e-2), loss='sparse_categorical_crossentropy')"):
    return SMALL_NET.format(shape=shape, layers=layers, compile=compile)


WRONG += [
    Wrong("ch14-predict-labels", "not scaled", """
        images = np.asarray(raw_images).astype("float32")[..., None]
        return model.predict(images, verbose=0).argmax(axis=1)
        """, "unscaled"),
    Wrong("ch14-predict-labels", "no channel axis", """
        images = np.asarray(raw_images).astype("float32") / 255.0
        return model.predict(images, verbose=0).argmax(axis=1)
        """, "channel axis"),
    Wrong("ch14-predict-labels", "the scores, not the labels", """
        images = (np.asarray(raw_images).astype("float32") / 255.0)[..., None]
        return model.predict(images, verbose=0)
        """, "one label per image"),
    Wrong("ch14-predict-labels", "divided by 16", """
        images = (np.asarray(raw_images).astype("float32") / 16.0)[..., None]
        return model.predict(images, verbose=0).argmax(axis=1)
        """, "divide by 255"),
    Wrong("ch14-per-class", "precision, not recall", """
        y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
        return [float(np.mean(y_true[y_pred == digit] == digit))
                for digit in range(10)]
        """, "precision"),
    Wrong("ch14-per-class", "counts", """
        y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
        return [int(np.sum((y_true == digit) & (y_pred == digit)))
                for digit in range(10)]
        """, "counts"),
    Wrong("ch14-per-class", "the overall accuracy ten times", """
        return [float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))] * 10
        """, "expected"),
    Wrong("ch14-small-net", "too big", small_net(
        layers="keras.layers.Flatten(),\n        keras.layers.Dense(32, "
               "activation='relu'),\n        keras.layers.Dense(10, "
               "activation='softmax'),"), "stay under 1,000"),
    Wrong("ch14-small-net", "not compiled", small_net(compile="pass"),
          "compile the model"),
    Wrong("ch14-small-net", "flat inputs", small_net(
        shape="(64,)", layers="keras.layers.Dense(10, activation='softmax'),"),
          "refused a batch of images"),
    Wrong("ch14-small-net", "too slow to learn", small_net(
        compile="small.compile(optimizer=keras.optimizers.SGD(learning_rate=1e-4),"
                " loss='sparse_categorical_crossentropy')"), "need at least 0.85"),
]


# --------------------------------------------------------------------------
# Chapter 15

PAIR_BUILD = """
        def build(self, query_shape, value_shape):
            self.query_dense = keras.layers.Dense(self.units, name="query")
            self.query_dense.build(query_shape)
            self.value_dense = keras.layers.Dense(self.units, name="value")
            self.value_dense.build(value_shape)
"""
PAIR_CALL = """
        def call(self, query, value):
            q = self.query_dense(query)
            v = self.value_dense(value)
            return ops.matmul(q, ops.swapaxes(v, -2, -1))
"""

WRONG += [
    Own("ch15-kernel-shape", """
        from kerasmini.layers.core.einsum_dense import analyze_equation
        shapes = analyze_equation(equation, None, input_shape, output_shape)
        return tuple(shapes[0])
        """, "analyze_equation"),
    Wrong("ch15-kernel-shape", "the batch letter read from output_shape", """
        inputs, rest = equation.split(",")
        kernel, output = rest.split("->")
        sizes = dict(zip(inputs, input_shape))
        sizes.update({c: n for c, n in zip(output, output_shape) if n is not None})
        return tuple(sizes.get(c) for c in kernel)
        """, "output_shape has no batch axis|takes its size from output_shape"),
    Wrong("ch15-kernel-shape", "a list", """
        inputs, rest = equation.split(",")
        kernel, output = rest.split("->")
        sizes = dict(zip(inputs, input_shape))
        sizes.update({c: n for c, n in zip(output[1:], output_shape) if n is not None})
        return [sizes[c] for c in kernel]
        """, "return a tuple"),
    Wrong("ch15-kernel-shape", "every size from the input", """
        inputs, rest = equation.split(",")
        kernel = rest.split("->")[0]
        sizes = dict(zip(inputs, input_shape))
        return tuple(sizes.get(c) for c in kernel)
        """, "takes its size from output_shape"),
    Own("ch15-attention", """
        out = keras.ops.dot_product_attention(
            query, key, value, mask=None if mask is None else mask[:, None])
        return out, None
        """, "ops.dot_product_attention"),
    Wrong("ch15-attention", "not scaled", """
        logits = np.einsum("btnh,bsnh->bnts", query, key)
        if mask is not None:
            logits = np.where(mask[:, None], logits, -1e9)
        w = np.exp(logits - logits.max(-1, keepdims=True))
        w = w / w.sum(-1, keepdims=True)
        return np.einsum("bnts,bsnh->btnh", w, value), w
        """, "divide the logits by sqrt"),
    Wrong("ch15-attention", "softmax over the queries", """
        logits = np.einsum("btnh,bsnh->bnts", query, key) / np.sqrt(query.shape[-1])
        if mask is not None:
            logits = np.where(mask[:, None], logits, -1e9)
        w = np.exp(logits - logits.max(-2, keepdims=True))
        w = w / w.sum(-2, keepdims=True)
        return np.einsum("bnts,bsnh->btnh", w, value), w
        """, "sum to one over the keys"),
    Wrong("ch15-attention", "mask ignored", """
        logits = np.einsum("btnh,bsnh->bnts", query, key) / np.sqrt(query.shape[-1])
        w = np.exp(logits - logits.max(-1, keepdims=True))
        w = w / w.sum(-1, keepdims=True)
        return np.einsum("bnts,bsnh->btnh", w, value), w
        """, "masked key .* must get no weight"),
    Wrong("ch15-attention", "weights laid out (B, T, N, S)", """
        logits = np.einsum("btnh,bsnh->btns", query, key) / np.sqrt(query.shape[-1])
        if mask is not None:
            logits = np.where(mask[:, :, None], logits, -1e9)
        w = np.exp(logits - logits.max(-1, keepdims=True))
        w = w / w.sum(-1, keepdims=True)
        return np.einsum("btns,bsnh->btnh", w, value), w
        """, r"\(B, N, T, S\)"),
    Own("ch15-attention-mask", """
        layer = keras.layers.MultiHeadAttention(1, 1)
        x = np.zeros((query_mask.shape[0], query_mask.shape[1], 1))
        y = np.zeros((value_mask.shape[0], value_mask.shape[1], 1))
        return np.asarray(layer._compute_attention_mask(
            x, y, query_mask=query_mask, value_mask=value_mask,
            use_causal_mask=causal))
        """, "MultiHeadAttention._compute_attention_mask"),
    Wrong("ch15-attention-mask", "the future, not the past", """
        mask = query_mask[:, :, None] & value_mask[:, None, :]
        if causal:
            t, s = mask.shape[1:]
            mask = mask & (np.arange(t)[:, None] <= np.arange(s)[None, :])
        return mask
        """, "upside down"),
    Wrong("ch15-attention-mask", "or, not and", """
        mask = query_mask[:, :, None] | value_mask[:, None, :]
        if causal:
            t, s = mask.shape[1:]
            mask = mask & (np.arange(t)[:, None] >= np.arange(s)[None, :])
        return mask
        """, "logical and, not or"),
    Wrong("ch15-attention-mask", "only the value's mask", """
        mask = np.broadcast_to(value_mask[:, None, :], (
            value_mask.shape[0], query_mask.shape[1], value_mask.shape[1]))
        if causal:
            t, s = mask.shape[1:]
            mask = mask & (np.arange(t)[:, None] >= np.arange(s)[None, :])
        return mask
        """, "query's mask is missing"),
    Wrong("ch15-attention-mask", "value positions as rows", """
        mask = value_mask[:, :, None] & query_mask[:, None, :]
        return mask
        """, r"the query's positions as rows|differs"),
    Wrong("ch15-made-of-layers", "one build argument", """
        def build(self, input_shape):
            self.query_dense = keras.layers.Dense(self.units, name="query")
            self.query_dense.build(input_shape)
            self.value_dense = keras.layers.Dense(self.units, name="value")
        """ + PAIR_CALL, "give it two shapes"),
    Wrong("ch15-made-of-layers", "sublayers made in call", """
        def build(self, query_shape, value_shape):
            pass

        def call(self, query, value):
            self.query_dense = keras.layers.Dense(self.units, name="query")
            self.value_dense = keras.layers.Dense(self.units, name="value")
            q, v = self.query_dense(query), self.value_dense(value)
            return ops.matmul(q, ops.swapaxes(v, -2, -1))
        """, "create the sublayers in build|sublayers are \\[\\]"),
    Wrong("ch15-made-of-layers", "sublayers left unbuilt", """
        def build(self, query_shape, value_shape):
            self.query_dense = keras.layers.Dense(self.units, name="query")
            self.value_dense = keras.layers.Dense(self.units, name="value")
        """ + PAIR_CALL, "build with its shape"),
    Wrong("ch15-made-of-layers", "value first", """
        def build(self, query_shape, value_shape):
            self.value_dense = keras.layers.Dense(self.units, name="value")
            self.value_dense.build(value_shape)
            self.query_dense = keras.layers.Dense(self.units, name="query")
            self.query_dense.build(query_shape)
        """ + PAIR_CALL, "in that order"),
    Wrong("ch15-made-of-layers", "no transpose", PAIR_BUILD + """
        def call(self, query, value):
            return ops.matmul(self.query_dense(query), self.value_dense(value))
        """, "fails|transposed"),
]


# --------------------------------------------------------------------------

@pytest.mark.parametrize("label", labels())
def test_the_solution_passes(label, capsys):
    run_check(label, answers(label))
    assert f"✔ {label}: correct" in capsys.readouterr().out


@pytest.mark.parametrize("label", labels())
def test_the_untouched_stub_is_not_written_yet(label):
    # the stub raises NotImplementedError naming its exercise
    try:
        objects = stub_answers(label)
    except NotImplementedError:
        return  # the cell itself raises (a stub at module level)
    with pytest.raises(AssertionError) as raised:
        run_check(label, objects)
    message = " ".join(str(raised.value).split())
    assert re.match(f"^{label}: .* is not written yet", message), message


def _id(wrong):
    return f"{wrong.label}:{wrong.why}"


@pytest.mark.parametrize("wrong", WRONG, ids=_id)
def test_a_wrong_answer_fails_naming_the_mistake(wrong, monkeypatch):
    # a wrong answer's `before` may patch kerasmini (ch13's class that is not
    # registered): monkeypatch puts the name back afterwards, so no later
    # test (in this process, whatever the order) sees the patch
    import kerasmini.saving

    monkeypatch.setattr(kerasmini.saving, "register_keras_serializable",
                        kerasmini.saving.register_keras_serializable)
    objects = answers(wrong.label, wrong.body, wrong.before)
    with pytest.raises(wrong.error) as raised:
        run_check(wrong.label, objects)
    message = " ".join(str(raised.value).split())  # messages wrap at 72 columns
    assert re.search(wrong.match, message), message


def test_every_exercise_is_tried_with_wrong_answers():
    tried = {wrong.label for wrong in WRONG}
    assert tried <= set(labels())
    for label in labels():
        assert sum(w.label == label for w in WRONG) >= 3, label


def test_every_grade_cell_calls_its_chapters_check():
    for label in labels():
        name, _ = grade_call(label)
        module = importlib.import_module(chapter_module(label))
        assert getattr(module, name).label == label


def test_graded_loads_the_checks_afresh_from_their_files(monkeypatch, capsys):
    # a notebook that patched the imported check (or its helpers) changes
    # nothing: `graded` runs the check from the files, under a new name
    ch03 = importlib.import_module("kerasmini.book.exercises.ch03")
    def passes(*answers):
        pass

    passes.label = "ch03-count-params"
    monkeypatch.setattr(ch03, "check_count_params", passes)
    monkeypatch.setattr(_support, "expect", lambda *a: None)
    monkeypatch.setattr(_support, "fail", lambda *a: None)
    (wrong,) = answers("ch03-count-params", "return n_in * units")
    exercises.check("ch03-count-params", wrong)  # the patched one: passes
    with pytest.raises(AssertionError, match="did you count the\\s+bias"):
        exercises.graded("ch03-count-params", wrong)
    capsys.readouterr()
    exercises.graded("ch03-count-params", *answers("ch03-count-params"))
    assert capsys.readouterr().out == ""  # the visible self-check said "correct"
    import sys
    assert not [name for name in sys.modules if name.startswith("_kerasmini_graded")]


def test_graded_refuses_a_label_that_is_not_an_exercise():
    with pytest.raises(ValueError, match="ch03-scale-layer"):
        exercises.graded("../../etc/passwd")
    with pytest.raises(ValueError, match="has no check for exercise 'ch03-nothing'"):
        exercises.graded("ch03-nothing")
