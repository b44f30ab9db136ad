"""Character-level GRU language model trained with truncated BPTT: the hidden state is
carried across chunks in a dataclass, detached at every chunk boundary; the epoch loss is
accumulated as a Python float."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog. " * 6
CHARS = sorted(set(TEXT))
EMB, HID, CHUNK, EPOCHS = 12, 32, 10, 2


@dataclass
class StreamState:
    hidden: torch.Tensor
    loss_sum: float = 0.0
    chunks: int = 0


class CharGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(len(CHARS), EMB)
        self.gru = nn.GRU(EMB, HID, batch_first=True)
        self.out = nn.Linear(HID, len(CHARS))

    def forward(self, ids, h):
        y, h = self.gru(self.embed(ids), h)
        return self.out(y), h


torch.manual_seed(0)
data = torch.tensor([CHARS.index(c) for c in TEXT]).unsqueeze(0)
model = CharGRU()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(EPOCHS):
    state = StreamState(hidden=torch.zeros(1, 1, HID))
    for start in range(0, min(data.size(1) - 1, 4 * CHUNK), CHUNK):
        state.hidden = state.hidden.detach()
        x, y = data[:, start:start + CHUNK], data[:, start + 1:start + CHUNK + 1]
        logits, state.hidden = model(x, state.hidden)
        loss = F.cross_entropy(logits.reshape(-1, len(CHARS)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state.loss_sum += loss.item()
        state.chunks += 1
    print(f"epoch {epoch} mean loss {state.loss_sum / state.chunks:.4f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
