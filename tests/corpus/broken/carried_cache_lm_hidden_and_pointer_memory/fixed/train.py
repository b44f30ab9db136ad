"""LSTM language model with a continuous cache (pointer over recently seen hidden states),
trained with truncated BPTT over one long token stream."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HID, BPTT, BATCH, CACHE_WINDOWS = 20, 12, 24, 5, 2, 3


class CacheLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.lstm = nn.LSTM(EMB, HID, batch_first=True)
        self.decoder = nn.Linear(HID, VOCAB)
        self.query = nn.Linear(HID, HID, bias=False)
        self.gate = nn.Linear(HID, 1)

    def forward(self, tokens, hidden, cache_keys=None, cache_tokens=None):
        out, hidden = self.lstm(self.embed(tokens), hidden)
        probs = F.softmax(self.decoder(out), -1)
        if cache_keys is not None:
            scores = torch.einsum("bth,bmh->btm", self.query(out), cache_keys)
            ptr = F.softmax(scores, -1) @ F.one_hot(cache_tokens, VOCAB).float()
            lam = torch.sigmoid(self.gate(out))
            probs = (1 - lam) * probs + lam * ptr
        return torch.log(probs + 1e-8), hidden, out


def token_stream(n):
    motif = torch.tensor([3, 7, 7, 1, 12, 5, 3, 9])
    noise = torch.randint(0, VOCAB, (n,))
    keep = torch.rand(n) < 0.7
    return torch.where(keep, motif.repeat(n // len(motif) + 1)[:n], noise)


torch.manual_seed(0)
model = CacheLM()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
data = token_stream(BATCH * 40).view(BATCH, -1)

hidden = (torch.zeros(1, BATCH, HID), torch.zeros(1, BATCH, HID))
memory = []
for i, start in enumerate(range(0, 6 * BPTT, BPTT)):
    x, y = data[:, start:start + BPTT], data[:, start + 1:start + 1 + BPTT]
    keys = torch.cat([m for m, _ in memory], 1) if memory else None
    toks = torch.cat([t for _, t in memory], 1) if memory else None
    hidden = tuple(h.detach() for h in hidden)
    log_probs, hidden, out = model(x, hidden, keys, toks)
    loss = F.nll_loss(log_probs.flatten(0, 1), y.flatten())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    memory.append((out.detach(), y))
    memory = memory[-CACHE_WINDOWS:]
    print(f"window {i}: nll {loss.item():.4f} cache {sum(m.size(1) for m, _ in memory)}")
