"""Next-item recommender: a user's recent items are embedded and mean-pooled into a user
vector that is scored against the whole catalogue (full softmax). The training loss uses
popularity-adjusted logits so that the model does not learn the popularity bias."""
import torch
import torch.nn as nn
import torch.nn.functional as F

import debias

torch.manual_seed(0)
N_ITEMS, DIM, HISTORY, BATCH, EPOCHS = 50, 16, 5, 32, 3


class NextItemModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.user_proj = nn.Sequential(nn.Linear(DIM, DIM), nn.GELU(), nn.Linear(DIM, DIM))
        self.out_bias = nn.Parameter(torch.zeros(N_ITEMS))

    def forward(self, history):
        user = self.user_proj(self.item_emb(history).mean(dim=1))
        return user @ self.item_emb.weight.t() + self.out_bias


def synthetic_sessions(n):
    """Items come in 5 themed blocks of 10; a session stays inside one block,
    and low item ids inside a block are more popular."""
    block = torch.randint(0, 5, (n, 1))
    offsets = torch.multinomial(torch.linspace(2.0, 0.2, 10), n * (HISTORY + 1),
                                replacement=True).view(n, HISTORY + 1)
    items = block * 10 + offsets
    return items[:, :HISTORY], items[:, HISTORY]


def main():
    history, target = synthetic_sessions(128)
    log_prior = debias.item_log_prior(torch.bincount(target, minlength=N_ITEMS))
    model = NextItemModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(EPOCHS):
        epoch_loss = 0.0
        for start in range(0, len(target), BATCH):
            h, y = history[start:start + BATCH], target[start:start + BATCH]
            logits = model(h)
            adjusted = debias.adjust_logits(logits, log_prior, tau=0.5)
            loss = F.cross_entropy(adjusted, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        with torch.no_grad():
            recs = debias.top_k(model(history), log_prior)
        hits = (recs == target[:, None]).any(1).float()
        print(f"epoch {epoch} loss {epoch_loss / 4:.4f} hit@5 {hits.mean().item():.3f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
