"""Review sentiment classifier: a GRU encodes padded token sequences, additive attention
pools the hidden states into one vector, and a linear layer classifies it. Attention on
padded positions is zeroed by the shared pooling helpers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from pooling import mask_padding_, renormalise

VOCAB, EMB, HID, MAX_LEN = 40, 16, 24, 10
PAD = 0


class AttentionPoolClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB, padding_idx=PAD)
        self.rnn = nn.GRU(EMB, HID, batch_first=True)
        self.attn = nn.Sequential(nn.Linear(HID, HID), nn.Tanh(), nn.Linear(HID, 1))
        self.out = nn.Linear(HID, 2)

    def forward(self, tokens, lengths):
        states, _ = self.rnn(self.embed(tokens))
        weights = torch.softmax(self.attn(states).squeeze(-1), dim=1)
        weights = renormalise(mask_padding_(weights, lengths))
        pooled = (weights.unsqueeze(-1) * states).sum(dim=1)
        return self.out(pooled)


def make_reviews(n):
    labels = torch.randint(0, 2, (n,))
    lengths = torch.randint(4, MAX_LEN + 1, (n,))
    tokens = torch.randint(1, VOCAB // 2, (n, MAX_LEN)) + labels[:, None] * (VOCAB // 2 - 1)
    tokens[torch.arange(MAX_LEN)[None, :] >= lengths[:, None]] = PAD
    return tokens, lengths, labels


def train_epoch(model, optimizer, batches):
    for tokens, lengths, labels in batches:
        loss = F.cross_entropy(model(tokens, lengths), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


torch.manual_seed(0)
model = AttentionPoolClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
batches = [make_reviews(16) for _ in range(3)]
for epoch in range(2):
    print(f"epoch {epoch} loss {train_epoch(model, optimizer, batches):.4f}")
