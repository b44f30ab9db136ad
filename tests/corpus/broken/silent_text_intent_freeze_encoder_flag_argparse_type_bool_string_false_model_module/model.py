import torch
import torch.nn as nn


class ConvEncoder(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.conv = nn.Conv1d(dim, dim, 3, padding=1)

    def forward(self, tokens):
        h = self.embed(tokens).transpose(1, 2)
        return torch.relu(self.conv(h)).transpose(1, 2)


class IntentClassifier(nn.Module):
    def __init__(self, vocab_size, n_intents, dim=16, freeze_encoder=False):
        super().__init__()
        self.encoder = ConvEncoder(vocab_size, dim)
        self.head = nn.Linear(dim, n_intents)
        self.freeze_encoder = freeze_encoder

    def forward(self, tokens):
        # linear-probe mode: run the pretrained encoder without building a graph
        with torch.set_grad_enabled(self.training and not self.freeze_encoder):
            h = self.encoder(tokens)
        mask = (tokens != 0).unsqueeze(-1).float()
        pooled = (h * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(pooled)
