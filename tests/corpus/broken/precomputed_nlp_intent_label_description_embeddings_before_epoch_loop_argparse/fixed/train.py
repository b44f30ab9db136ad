"""Dual-encoder intent classifier: utterances are matched against encoded label descriptions."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 40
INTENTS = {
    "book_flight": [3, 4, 5, 6],
    "cancel_order": [7, 8, 9, 10],
    "weather": [11, 12, 13, 14],
    "play_music": [15, 16, 17, 18],
}


class TextEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.bag = nn.EmbeddingBag(VOCAB, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens):
        return F.normalize(self.proj(torch.tanh(self.bag(tokens))), dim=-1)


def utterances(n, g):
    keys = list(INTENTS)
    labels = torch.randint(0, len(keys), (n,), generator=g)
    rows = []
    for lab in labels.tolist():
        words = torch.tensor(INTENTS[keys[lab]])
        pick = words[torch.randint(0, 4, (3,), generator=g)]
        filler = torch.randint(19, VOCAB, (3,), generator=g)
        rows.append(torch.cat([pick, filler]))
    return torch.stack(rows), labels


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--dim", type=int, default=12)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--temperature", type=float, default=0.1)
    return p.parse_args()


def train(args):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(5)
    encoder = TextEncoder(args.dim)
    optimizer = torch.optim.SGD(encoder.parameters(), lr=args.lr, momentum=0.9)
    descriptions = torch.tensor([words for words in INTENTS.values()])
    x, y = utterances(24, g)

    for epoch in range(args.epochs):
        for start in range(0, x.shape[0], args.batch):
            label_emb = encoder(descriptions)
            q = encoder(x[start:start + args.batch])
            logits = q @ label_emb.t() / args.temperature
            loss = F.cross_entropy(logits, y[start:start + args.batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train(parse_args())
