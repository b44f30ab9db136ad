"""Attention-pooled LSTM emoji predictor (a small torchMoji look-alike)."""
import torch
import torch.nn as nn


class EmojiPredictor(nn.Module):
    def __init__(self, vocab_size, dim=16, n_emoji=6, return_tensor=True):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.attn = nn.Linear(dim, 1)
        self.out = nn.Linear(dim, n_emoji)
        # the exported predictor hands plain tensors to the serving code
        self.return_tensor = return_tensor

    def forward(self, tokens):
        h, _ = self.lstm(self.embed(tokens))
        scores = self.attn(h).squeeze(-1).masked_fill(tokens == 0, -1e4)
        weights = torch.softmax(scores, dim=1)
        pooled = (weights.unsqueeze(-1) * h).sum(dim=1)
        outputs = self.out(pooled)
        return outputs
