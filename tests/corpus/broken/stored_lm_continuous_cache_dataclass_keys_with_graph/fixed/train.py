"""Word-level GRU language model with a continuous cache (Grave et al., 2017) trained end to
end: the hidden states of recent positions and the words that followed them are kept in a
CacheState dataclass, and the next-word distribution mixes the softmax with a cache
distribution built by matching the current hidden state against the cached keys."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HID, BPTT, BATCHES, WINDOW = 40, 16, 24, 6, 5, 12


@dataclass
class CacheState:
    keys: list = field(default_factory=list)
    values: list = field(default_factory=list)

    def trim(self, window):
        self.keys, self.values = self.keys[-window:], self.values[-window:]


class CacheLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.GRU(EMB, HID, batch_first=True)
        self.decoder = nn.Linear(HID, VOCAB)
        self.theta = nn.Parameter(torch.tensor(0.3))
        self.mix_logit = nn.Parameter(torch.tensor(-1.0))

    def forward(self, tokens, cache):
        hidden, _ = self.rnn(self.embed(tokens))
        p_model = F.softmax(self.decoder(hidden), dim=-1)
        if not cache.keys:
            return p_model.clamp_min(1e-8).log(), hidden
        keys = torch.cat(cache.keys, dim=1)
        values = F.one_hot(torch.cat(cache.values, dim=1), VOCAB).float()
        attn = F.softmax(self.theta * hidden @ keys.transpose(1, 2), dim=-1)
        p_cache = attn @ values
        lam = torch.sigmoid(self.mix_logit)
        return ((1 - lam) * p_model + lam * p_cache).clamp_min(1e-8).log(), hidden


def train():
    torch.manual_seed(0)
    corpus = torch.randint(0, VOCAB, (1, BPTT * BATCHES + 1))
    corpus[:, 1::4] = 7
    model = CacheLM()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    cache = CacheState()
    for i in range(BATCHES):
        inputs = corpus[:, i * BPTT:(i + 1) * BPTT]
        targets = corpus[:, i * BPTT + 1:(i + 1) * BPTT + 1]
        log_probs, hidden = model(inputs, cache)
        loss = F.nll_loss(log_probs.reshape(-1, VOCAB), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        cache.keys.append(hidden.detach())
        cache.values.append(targets)
        cache.trim(WINDOW)
        print(f"batch {i} ppl {loss.exp().item():.2f} cache size {sum(k.size(1) for k in cache.keys)}")
    return model


if __name__ == "__main__":
    train()
