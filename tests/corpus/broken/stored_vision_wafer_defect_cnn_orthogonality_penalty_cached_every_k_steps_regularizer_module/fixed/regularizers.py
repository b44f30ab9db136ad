"""Soft orthogonality regulariser for convolution filters: sum ||W W^T - I||_F^2."""
import torch
import torch.nn as nn


class SoftOrthogonality:
    def __init__(self, model, weight=1e-3, every=3):
        self.layers = [m for m in model.modules() if isinstance(m, nn.Conv2d)]
        self.weight = weight
        self.every = every

    def _compute(self):
        total = 0.0
        for conv in self.layers:
            w = conv.weight.flatten(1)
            gram = w @ w.t()
            eye = torch.eye(gram.shape[0])
            total = total + ((gram - eye) ** 2).sum()
        return self.weight * total

    def __call__(self, step):
        # the Gram matrices are the expensive part: apply the penalty every few steps only,
        # computed fresh from the current weights (a cached graph cannot be backwarded twice)
        if step % self.every == 0:
            return self._compute()
        return torch.zeros(())
