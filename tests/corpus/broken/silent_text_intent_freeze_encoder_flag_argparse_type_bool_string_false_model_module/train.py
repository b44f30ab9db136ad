import argparse

import torch
import torch.nn.functional as F

from model import IntentClassifier


def parse_args():
    p = argparse.ArgumentParser(description="intent classifier fine-tuning")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--freeze-encoder", type=bool, default=False)
    return p.parse_args()


def make_utterances(n=32, length=8, vocab=50, n_intents=4):
    intents = torch.randint(0, n_intents, (n,))
    tokens = torch.randint(5, vocab, (n, length))
    tokens[:, 1] = intents + 1
    tokens[:, -2:] = 0
    return tokens, intents


def main():
    args = parse_args()
    torch.manual_seed(11)
    tokens, intents = make_utterances()
    model = IntentClassifier(50, 4, freeze_encoder=args.freeze_encoder)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, tokens.shape[0], 8):
            logits = model(tokens[i:i + 8])
            loss = F.cross_entropy(logits, intents[i:i + 8])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
