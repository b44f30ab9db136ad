"""Read-only functions over real autograd graphs: reachability, consumers, leaves, saved
state before and after a backward, names for nodes."""

from __future__ import annotations

import torch
import torch.nn as nn

from autograd_doctor.graph import names, walk


def test_walk_finds_every_node_once_and_leaves_behind_accumulators() -> None:
    lin = nn.Linear(3, 2)
    x = torch.randn(4, 3)
    out = torch.tanh(lin(x)).sum()
    nodes = walk.walk([out.grad_fn])
    assert len(nodes) == len(set(nodes))
    assert {id(t) for t in walk.leaves(nodes)} == {id(lin.weight), id(lin.bias)}
    cons = walk.consumers(nodes)
    tanh = next(n for n in nodes if walk.node_name(n) == "TanhBackward0")
    assert [walk.node_name(c) for c in cons[tanh]] == ["SumBackward0"]


def test_saved_state_tells_live_freed_and_modified_apart() -> None:
    x = torch.randn(3, requires_grad=True)
    y = torch.sigmoid(x)  # SigmoidBackward0 saves its output
    node = y.grad_fn
    assert walk.saved_state(node) == walk.LIVE
    y.sum().backward(retain_graph=True)
    assert walk.saved_state(node) == walk.LIVE
    with torch.no_grad():
        y.add_(1)
    assert walk.saved_state(node) == walk.MODIFIED and walk.modified_saves(node)
    z = torch.exp(x)
    z.sum().backward()
    assert walk.saved_state(z.grad_fn) == walk.FREED


def test_sequence_numbers_order_nodes_in_time() -> None:
    x = torch.randn(2, requires_grad=True)
    a = x * 2
    b = a + 1
    assert walk.sequence_nr(a.grad_fn) < walk.sequence_nr(b.grad_fn)


def test_roots_of_tensors_lists_and_leaves() -> None:
    leaf = torch.ones(2, requires_grad=True)
    y = leaf * 3
    assert walk.roots_of(y) == [y.grad_fn]
    assert [walk.node_name(r) for r in walk.roots_of([y, leaf])] == ["MulBackward0",
                                                                      "AccumulateGrad"]
    assert walk.roots_of(None) == []


def test_scan_names_tensors_with_history_in_scopes_and_containers() -> None:
    leaf = torch.ones(2, requires_grad=True)
    h = leaf * 2
    pair = (leaf * 3, leaf * 4)
    scope = {"h": h, "pair": pair, "plain": torch.zeros(2), "n": 3}
    found = {b.expression: b.kind for b in names.scan(scope, "local")}
    assert found == {"h": "local", "pair[0]": "container-element",
                     "pair[1]": "container-element"}
    assert names.structure(pair) == "(T, T)" and names.structure([pair]) == "[(T, T)]"


def test_module_state_with_history_is_named_by_its_path() -> None:
    class Bank(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(2, 2)
            self.memory = torch.zeros(1, 2)

    bank = Bank()
    bank.memory = bank.fc(torch.ones(1, 2))
    names.forget_plans()
    found = [b.expression for b in names.scan({"bank": bank}, "local")]
    assert found == ["bank.memory"]
