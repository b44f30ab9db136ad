"""Embedding-level augmentation for the sound-event tagger.

CrossBatchMixup is a forward hook for the encoder: during training it mixes the embeddings of
the current batch with the embeddings of the previous batch (cheap "manifold mixup" without a
second forward pass) and mixes the multi-hot targets the same way.
"""
import numpy as np


class CrossBatchMixup:
    def __init__(self, alpha=0.4, seed=0):
        self.alpha = alpha
        self.rng = np.random.RandomState(seed)
        self.bank = None
        self.bank_targets = None
        self.targets = None
        self.mixed_targets = None
        self.lam = 1.0

    def set_targets(self, targets):
        self.targets = targets

    def __call__(self, module, inputs, output):
        if not module.training:
            return output
        if self.bank is None or self.bank.shape != output.shape:
            mixed, self.mixed_targets, self.lam = output, self.targets, 1.0
        else:
            self.lam = float(self.rng.beta(self.alpha, self.alpha))
            mixed = self.lam * output + (1.0 - self.lam) * self.bank
            self.mixed_targets = self.lam * self.targets + (1.0 - self.lam) * self.bank_targets
        self.bank, self.bank_targets = output, self.targets
        return mixed
