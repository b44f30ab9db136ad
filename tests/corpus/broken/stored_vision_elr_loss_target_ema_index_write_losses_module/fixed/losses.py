"""Early-Learning Regularisation (Liu et al., NeurIPS 2020) for training with noisy labels.

Keeps a temporal ensemble of the model's predictions for every training example and adds a
term that pulls the current prediction towards it, so the network does not memorise the
wrong labels after the early-learning phase."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ELRLoss(nn.Module):
    def __init__(self, num_examples, num_classes, beta=0.7, lam=3.0):
        super().__init__()
        self.register_buffer("target", torch.zeros(num_examples, num_classes))
        self.beta, self.lam = beta, lam

    def forward(self, index, logits, labels):
        probs = F.softmax(logits, dim=1).clamp(1e-4, 1.0 - 1e-4)
        normed = probs / probs.sum(dim=1, keepdim=True)
        self.target[index] = self.beta * self.target[index] + (1 - self.beta) * normed.detach()
        ce = F.cross_entropy(logits, labels)
        elr = (1 - (self.target[index] * probs).sum(dim=1)).log().mean()
        return ce + self.lam * elr

    def agreement(self, labels):
        """Share of examples whose ensemble target agrees with the (noisy) label."""
        return (self.target.argmax(1) == labels).float().mean().item()
