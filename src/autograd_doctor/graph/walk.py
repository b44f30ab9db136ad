"""Read-only functions over autograd nodes: reachability, consumers, leaves, saved state.

No hooks, no files, no printing. Checked on torch 2.1-2.13: nodes are hashable and compare
by identity, and `next_functions` stays walkable after a backward freed the saved tensors.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import torch

Node = Any  # torch.autograd.graph.Node; C++ nodes are not subclasses in a way mypy sees

FREED = "freed"
MODIFIED = "modified"
LIVE = "live"
NOTHING = "nothing"  # the node saves no tensor (AddBackward0, AccumulateGrad...)


def roots_of(tensors: object) -> list[Node]:
    """The graph roots of what backward/grad was given: a tensor or a sequence of them."""
    items: Iterable[object]
    if isinstance(tensors, torch.Tensor):
        items = (tensors,)
    elif isinstance(tensors, (tuple, list)):
        items = tensors
    else:
        return []
    roots: list[Node] = []
    for t in items:
        if isinstance(t, torch.Tensor):
            node = t.grad_fn
            if node is None and t.requires_grad:
                node = _accumulator(t)
            if node is not None:
                roots.append(node)
        elif isinstance(t, tuple) and t and is_node(t[0]):  # a GradientEdge
            roots.append(t[0])
    return roots


def tensors_in(value: object, depth: int = 2, mappings: bool = False) -> list[torch.Tensor]:
    """The tensors in `value`: itself, or inside lists and tuples (and dict values when
    `mappings`), `depth` levels down."""
    if isinstance(value, torch.Tensor):
        return [value]
    if depth <= 0:
        return []
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_in(v, depth - 1, mappings)]
    if mappings and isinstance(value, dict):
        return [t for v in value.values() for t in tensors_in(v, depth - 1, mappings)]
    return []


def _accumulator(leaf: torch.Tensor) -> Node | None:
    # `expand_as(...).grad_fn.next_functions` is the documented way to reach a leaf's
    # AccumulateGrad node; it creates one small node and no saved tensor.
    try:
        return leaf.view_as(leaf).grad_fn.next_functions[0][0]  # type: ignore[union-attr]
    except (RuntimeError, AttributeError, IndexError):
        return None


def is_node(obj: object) -> bool:
    return isinstance(obj, torch.autograd.graph.Node)


def walk(roots: Iterable[Node], stop: set[Node] | None = None) -> list[Node]:
    """Every node reachable from `roots`, each once, parents before their inputs.

    Nodes in `stop` are neither returned nor entered.
    """
    seen: set[Node] = set(stop) if stop else set()
    order: list[Node] = []
    stack = [r for r in roots if r is not None]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                stack.append(child)
    return order


def inputs_of(node: Node) -> Iterator[Node]:
    for child, _ in node.next_functions:
        if child is not None:
            yield child


def consumers(nodes: Iterable[Node]) -> dict[Node, list[Node]]:
    """For each node, the nodes (among `nodes`) that take its output as an input."""
    out: dict[Node, list[Node]] = {}
    for node in nodes:
        for child in inputs_of(node):
            out.setdefault(child, []).append(node)
    return out


def is_accumulator(node: Node) -> bool:
    return type(node).__name__ == "AccumulateGrad"


def leaf_of(node: Node) -> torch.Tensor | None:
    """The leaf tensor (usually a parameter) behind an AccumulateGrad node."""
    if not is_accumulator(node):
        return None
    variable = getattr(node, "variable", None)
    return variable if isinstance(variable, torch.Tensor) else None


def leaves(nodes: Iterable[Node]) -> list[torch.Tensor]:
    found = (leaf_of(n) for n in nodes)
    return [t for t in found if t is not None]


def node_name(node: Node) -> str:
    return str(type(node).__name__)


def sequence_nr(node: Node) -> int:
    # `_sequence_nr()` is private; present since torch 1.x and checked on 2.1-2.13.
    try:
        return int(node._sequence_nr())
    except (AttributeError, RuntimeError):
        return -1


def _saved_names(node: Node) -> list[str]:
    attributes = dir(node)  # hasattr would read the property, which raises once freed
    names = [a for a in attributes if a.startswith("_saved_")]
    if "saved_tensors" in attributes and not is_accumulator(node):  # custom Functions
        names.append("saved_tensors")
    return names


def saved_state(node: Node) -> str:
    """Whether the tensors this node saved for backward are still there.

    Reading a freed saved tensor raises the "backward a second time" error and reading one
    that was modified in place raises the in-place error, so probing tells them apart.
    """
    state = NOTHING
    for name in _saved_names(node):
        try:
            value = getattr(node, name)
        except RuntimeError as exc:
            text = str(exc)
            if "modified by an inplace operation" in text:
                return MODIFIED
            if "second time" in text or "freed" in text:
                return FREED
            continue
        if _holds_tensor(value):
            state = LIVE
    return state


def modified_saves(node: Node) -> list[str]:
    """Names of this node's saved tensors that were modified in place since they were saved."""
    found = []
    for name in _saved_names(node):
        try:
            getattr(node, name)
        except RuntimeError as exc:
            if "modified by an inplace operation" in str(exc):
                found.append(name)
    return found


def _holds_tensor(value: object) -> bool:
    if isinstance(value, torch.Tensor):
        return True
    if isinstance(value, (tuple, list)):
        return any(isinstance(v, torch.Tensor) for v in value)
    return False


def saved_bytes(nodes: Iterable[Node]) -> int:
    """Bytes of distinct storages still saved by these nodes (what the graph keeps alive)."""
    storages: dict[int, int] = {}
    for node in nodes:
        for name in _saved_names(node):
            try:
                value = getattr(node, name)
            except RuntimeError:
                continue
            values = value if isinstance(value, (tuple, list)) else (value,)
            for v in values:
                if isinstance(v, torch.Tensor) and v.layout == torch.strided:
                    try:
                        storage = v.untyped_storage()
                        storages[storage.data_ptr()] = storage.nbytes()
                    except RuntimeError:
                        continue
    return sum(storages.values())
