"""Character-level GRU language model with an auxiliary head that predicts whether the next
character ends a word. The two losses are backwarded separately (retain_graph on the first)
so the share of each term in the GRU's gradient can be logged, then one optimizer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = ("the quick brown fox jumps over the lazy dog while the small cat sleeps on the warm "
        "mat and the old owl watches the quiet field under the pale moon ")
CHARS = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(CHARS)}
SEQ, BATCH, AUX_WEIGHT = 16, 8, 0.5


class CharGRU(nn.Module):
    def __init__(self, emb=16, hidden=48):
        super().__init__()
        self.embed = nn.Embedding(len(CHARS), emb)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, len(CHARS))
        self.boundary_head = nn.Linear(hidden, 1)

    def forward(self, idx):
        out, _ = self.gru(self.embed(idx))
        return self.lm_head(out), self.boundary_head(out).squeeze(-1)


def batch(data):
    starts = torch.randint(0, len(data) - SEQ - 1, (BATCH,))
    x = torch.stack([data[s:s + SEQ] for s in starts])
    y = torch.stack([data[s + 1:s + SEQ + 1] for s in starts])
    return x, y, (y == STOI[" "]).float()


def grad_norm(params):
    return torch.sqrt(sum(p.grad.pow(2).sum() for p in params if p.grad is not None)).item()


def main(steps=5):
    torch.manual_seed(0)
    data = torch.tensor([STOI[c] for c in TEXT])
    model = CharGRU()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    gru_params = list(model.gru.parameters())
    for step in range(steps):
        x, y, boundary = batch(data)
        logits, boundary_logits = model(x)
        lm_loss = F.cross_entropy(logits.reshape(-1, len(CHARS)), y.reshape(-1))
        aux_loss = AUX_WEIGHT * F.binary_cross_entropy_with_logits(boundary_logits, boundary)
        optimizer.zero_grad()
        lm_loss.backward(retain_graph=True)
        lm_norm = grad_norm(gru_params)
        aux_loss.backward()
        total_norm = grad_norm(gru_params)
        optimizer.step()
        print(f"step {step} lm {lm_loss.item():.4f} aux {aux_loss.item():.4f} "
              f"gru grad lm {lm_norm:.4f} total {total_norm:.4f}")
    return sum(p.sum().item() for p in model.parameters())


if __name__ == "__main__":
    print(f"param checksum {main():.6f}")
