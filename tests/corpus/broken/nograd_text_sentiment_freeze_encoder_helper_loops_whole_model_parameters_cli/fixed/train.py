"""Fine-tune a bag-of-words review encoder for 3-way sentiment with a frozen encoder."""
import argparse

import torch
import torch.nn as nn

from finetune_utils import freeze_encoder

VOCAB = 200


class ReviewClassifier(nn.Module):
    def __init__(self, dim, n_classes):
        super().__init__()
        self.encoder = nn.Sequential(nn.EmbeddingBag(VOCAB, dim, mode="mean"), nn.LayerNorm(dim))
        self.classifier = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        return self.classifier(self.encoder(tokens))


def fake_reviews(n, length=12):
    tokens = torch.randint(0, VOCAB, (n, length))
    polarity = (tokens < 60).sum(1) - (tokens > 140).sum(1)
    labels = torch.bucketize(polarity, torch.tensor([-1, 1]))
    return tokens, labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--freeze-encoder", action="store_true")
    args = parser.parse_args()

    torch.manual_seed(9)
    model = ReviewClassifier(args.dim, 3)
    if args.freeze_encoder:
        n = freeze_encoder(model)
        print(f"froze {n} parameters")
    optimizer = torch.optim.AdamW(model.classifier.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()

    tokens, labels = fake_reviews(96)
    for epoch in range(args.epochs):
        for i in range(0, 96, 32):
            logits = model(tokens[i:i + 32])
            loss = criterion(logits, labels[i:i + 32])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
