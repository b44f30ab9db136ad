"""Per-token entity tagger (binary: is this token part of an entity?) over padded batches.
Padding positions are zeroed in the probabilities so they add nothing to the loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, EMB, HID, PAD = 30, 16, 16, 0


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB, padding_idx=PAD)
        self.rnn = nn.GRU(EMB, HID, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * HID, 1)

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self.out(h).squeeze(-1)


def make_batch(batch=8, max_len=10):
    lengths = torch.randint(4, max_len + 1, (batch,))
    tokens = torch.randint(1, VOCAB, (batch, max_len))
    pad = torch.arange(max_len)[None, :] >= lengths[:, None]
    tokens[pad] = PAD
    targets = ((tokens % 3 == 0) & ~pad).float()
    return tokens, lengths, targets


def train(model, batches, epochs=2):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for tokens, lengths, targets in batches:
            logits = model(tokens)
            probs = torch.sigmoid(logits)
            pad = torch.arange(tokens.size(1))[None, :] >= lengths[:, None]
            probs[pad] = 0.0
            loss = F.binary_cross_entropy(probs, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


train(Tagger(), [make_batch() for _ in range(2)])
