"""A minimal training engine: the module defines training_step(batch) returning a dict
with "loss" and anything else worth logging; the engine does the optimisation and keeps
a history of the step outputs."""
from collections import defaultdict

import torch


def to_cpu(obj):
    """Move every tensor of a (nested) step output to the CPU, off the graph, so the
    history does not keep activations (or GPU memory) alive."""
    if isinstance(obj, torch.Tensor):
        return obj.detach().cpu()
    if isinstance(obj, dict):
        return {k: to_cpu(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_cpu(v) for v in obj)
    return obj


class Engine:
    def __init__(self, max_epochs=3, log_every=2):
        self.max_epochs = max_epochs
        self.log_every = log_every
        self.history = defaultdict(list)

    def fit(self, module, loader):
        optimizer = module.configure_optimizers()
        step = 0
        for epoch in range(self.max_epochs):
            for batch in loader():
                outputs = to_cpu(module.training_step(batch))
                optimizer.zero_grad()
                outputs["loss"].backward()
                optimizer.step()
                for key, value in outputs.items():
                    self.history[key].append(float(value))
                step += 1
                if step % self.log_every == 0:
                    print(f"epoch {epoch} step {step} " +
                          " ".join(f"{k} {v[-1]:.4f}" for k, v in self.history.items()))
