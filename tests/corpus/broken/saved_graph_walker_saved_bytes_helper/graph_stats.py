"""Autograd graph statistics: how much memory the saved activations of a graph hold.
Used to decide which blocks are worth activation checkpointing."""
import torch


def saved_activation_bytes(root):
    """Walk the graph below `root` (a grad_fn) and sum the bytes of every saved tensor."""
    seen, stack, total, nodes = set(), [root], 0, 0
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        nodes += 1
        for name in dir(fn):
            if name.startswith("_saved_"):
                value = getattr(fn, name)
                if isinstance(value, torch.Tensor):
                    total += value.numel() * value.element_size()
        stack.extend(next_fn for next_fn, _ in fn.next_functions)
    return total, nodes
