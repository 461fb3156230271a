"""The map of the codebase: kerasmini's modules and who imports whom.

Chapter 1 draws it; ``tests/test_import_graph.py`` checks with it that every
import arrow points one way. An import inside a function counts as an arrow
too (it is one, only a later one), so a loop cannot hide there.

>>> modules = list_modules()
>>> "kerasmini.engine.base_layer" in modules, group_of("kerasmini.ops.node")
(True, 'ops')
"""

from __future__ import annotations

import ast
import collections
import functools
import pkgutil
from pathlib import Path

import kerasmini

ROOT = Path(kerasmini.__file__).parent  # the kerasmini package directory


def list_modules() -> dict[str, Path]:
    """``{module name: file}`` for kerasmini and every module under it, sorted.

    >>> list_modules()["kerasmini.tree"].name
    'tree.py'
    """
    found = {"kerasmini": ROOT / "__init__.py"}
    for info in pkgutil.walk_packages(kerasmini.__path__, "kerasmini."):
        found[info.name] = Path(info.module_finder.find_spec(info.name).origin)
    return dict(sorted(found.items()))


def group_of(module: str) -> str:
    """The subpackage a module belongs to, or ``"top-level"``.

    >>> group_of("kerasmini.saving.stores"), group_of("kerasmini.losses")
    ('saving', 'top-level')
    """
    parts = module.split(".")
    if len(parts) > 1 and (ROOT / parts[1]).is_dir():
        return parts[1]
    return "top-level"


def _import_statements(path):
    """``(ast node, inside a function?)`` for each import statement of a file."""
    stat = Path(path).stat()
    return _parsed_imports(str(path), (stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=None)
def _parsed_imports(path, stamp):
    # parsed once per version of a file (``stamp``): chapter 1 and the tests
    # build the graph several times. One walk, in ``ast.walk``'s order, that
    # carries down whether a node sits inside a function.
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    found = []
    todo = collections.deque([(tree, False)])
    while todo:
        node, in_function = todo.popleft()
        if isinstance(node, ast.Import) or (
                isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
            found.append((node, in_function))
        inside = in_function or isinstance(node, (ast.FunctionDef,
                                                  ast.AsyncFunctionDef))
        todo.extend((child, inside) for child in ast.iter_child_nodes(node))
    return tuple(found)


def _targets(node):
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return [_submodule_or_module(node.module, alias.name) for alias in node.names]


def imports_of(path: Path):
    """Yield ``(imported module, inside a function?)`` for each import of a file.

    ``from kerasmini.saving import serialization`` names the module
    ``kerasmini.saving.serialization`` when that is a module (a submodule
    import), else ``kerasmini.saving``.

    >>> sorted(t for t, lazy in imports_of(ROOT / "tree.py"))
    []
    """
    for node, lazy in _import_statements(path):
        for target in _targets(node):
            yield target, lazy


def _submodule_or_module(module, name):
    candidate = f"{module}.{name}"
    if candidate.startswith("kerasmini.") and candidate in _module_names():
        return candidate
    return module


_NAMES = None


def _module_names():
    global _NAMES
    if _NAMES is None:
        _NAMES = set(list_modules())
    return _NAMES


def _facade_targets(package, modules, seen=None):
    """The modules a package's ``__init__`` imports (through nested packages):
    what ``from kerasmini import ops`` really loads."""
    seen = set() if seen is None else seen
    found = set()
    for target, _ in imports_of(modules[package]):
        if target in seen or target == package or target not in modules:
            continue
        seen.add(target)
        if modules[target].name == "__init__.py":
            found |= _facade_targets(target, modules, seen)
        else:
            found.add(target)
    return found


def import_graph(include_lazy: bool = True) -> dict[str, set[str]]:
    """``{module: kerasmini modules it imports}`` over the whole package.

    A package's own ``__init__`` re-exporting its submodules (``kerasmini``,
    ``kerasmini.layers``...) is a facade, not a user: it is no node of the
    graph, and importing a package (``from kerasmini import ops``) is an
    arrow to each module its ``__init__`` imports. Importing the top package
    ``kerasmini`` is left out.

    >>> graph = import_graph()
    >>> "kerasmini.backend.core" in graph["kerasmini.backend.numpy"]
    True
    >>> "kerasmini.ops.numpy" in graph["kerasmini.losses"]  # from kerasmini import ops
    True
    """
    modules = list_modules()
    graph = collections.defaultdict(set)
    for module, path in modules.items():
        if path.name == "__init__.py":
            continue
        graph[module]
        for target, lazy in imports_of(path):
            if lazy and not include_lazy:
                continue
            if not target.startswith("kerasmini.") or target == module \
                    or target not in modules:
                continue
            if modules[target].name == "__init__.py":
                graph[module] |= _facade_targets(target, modules) - {module}
            else:
                graph[module].add(target)
    return dict(graph)


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (import loops),
    each sorted, by Tarjan's algorithm.

    >>> find_cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    """
    index, low, on_stack, stack, groups = {}, {}, set(), [], []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def imports_inside_functions() -> list[tuple[str, str]]:
    """``(module, first imported name)`` for every import *statement* written
    inside a function (the exceptions to "imports at the top").

    >>> all(isinstance(m, str) for m, _ in imports_inside_functions())
    True
    """
    return [(module, _targets(node)[0]) for module, path in list_modules().items()
            for node, lazy in _import_statements(path) if lazy]


def floor_of(module: str) -> str:
    """The floor of ``module`` in chapter 1's drawing: its folder under
    ``kerasmini/`` (``engine``, ``models``...), or its own name for a module
    that is one file (``tree``, ``losses``...). The folders are the floors.

    >>> floor_of("kerasmini.models.model"), floor_of("kerasmini.losses")
    ('models', 'losses')
    """
    return module.split(".")[1]


def floor_graph() -> dict[str, set[str]]:
    """``{floor: floors it imports}``: :func:`import_graph` seen from above,
    one box per folder (and per top-level module).

    >>> find_cycles(floor_graph())
    []
    """
    floors = collections.defaultdict(set)
    for module, targets in import_graph().items():
        floors[floor_of(module)]
        for target in targets:
            if floor_of(module) != floor_of(target):
                floors[floor_of(module)].add(floor_of(target))
    return dict(floors)


def floor_levels(graph: dict[str, set[str]] | None = None) -> list[list[str]]:
    """The floors bottom up: each folder stands one level above the highest
    folder it imports (the ground floor imports nothing).

    >>> floor_levels()[:2]
    [['api_export', 'tree'], ['backend']]
    """
    graph = floor_graph() if graph is None else graph
    level = {}

    def height(floor):
        if floor not in level:
            level[floor] = 1 + max((height(t) for t in graph[floor]), default=-1)
        return level[floor]

    for floor in graph:
        height(floor)
    return [sorted(f for f in graph if level[f] == n)
            for n in range(max(level.values()) + 1)]


def without_shortcuts(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The arrows of an acyclic graph that no longer path already implies (its
    transitive reduction): what a drawing needs to stay readable.

    >>> without_shortcuts({"a": {"b", "c"}, "b": {"c"}, "c": set()})
    {'a': {'b'}, 'b': {'c'}, 'c': set()}
    """
    def reachable(start):
        seen, stack = set(), list(graph[start])
        while stack:
            node = stack.pop()
            if node not in seen:
                seen.add(node)
                stack.extend(graph[node])
        return seen

    return {node: {t for t in targets
                   if not any(t in reachable(other) for other in targets - {t})}
            for node, targets in graph.items()}


__all__ = ["find_cycles", "floor_graph", "floor_levels", "floor_of", "group_of",
           "import_graph", "imports_inside_functions", "imports_of", "list_modules",
           "without_shortcuts"]
