import argparse

import torch
import torch.nn as nn

from data import credit_batches


class CreditNet(nn.Module):
    def __init__(self, n_num=6, n_cat=3, card=5, emb=4, hidden=24):
        super().__init__()
        self.cat_emb = nn.ModuleList(nn.Embedding(card, emb) for _ in range(n_cat))
        self.mlp = nn.Sequential(
            nn.Linear(n_num + n_cat * emb, hidden), nn.ReLU(), nn.Linear(hidden, 1)
        )

    def forward(self, num, cat):
        embs = [e(cat[:, i]) for i, e in enumerate(self.cat_emb)]
        return self.mlp(torch.cat([num] + embs, dim=1)).squeeze(1)


def train_epoch(model, batches, opt, crit):
    model.train()
    epoch_loss = 0.0
    for num, cat, y in batches:
        logits = model(num, cat)
        loss = crit(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss
    return epoch_loss / len(batches)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = CreditNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(1.5))
    batches = credit_batches()
    history = []
    for epoch in range(args.epochs):
        avg = train_epoch(model, batches, opt, crit)
        history.append(avg)
        print(f"epoch {epoch} mean loss {float(avg):.4f}")
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))


if __name__ == "__main__":
    main()
