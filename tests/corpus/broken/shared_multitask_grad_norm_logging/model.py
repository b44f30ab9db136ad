"""Two-headed network: a shared encoder, a sentiment head and a length-regression head."""
import torch.nn as nn


class TwoHeadNet(nn.Module):
    def __init__(self, vocab=40, dim=16, classes=2):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.trunk = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self.sentiment = nn.Linear(dim, classes)
        self.length = nn.Linear(dim, 1)
