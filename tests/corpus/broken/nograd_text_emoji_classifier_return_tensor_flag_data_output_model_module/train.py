import torch
import torch.nn as nn

from model import EmojiPredictor

torch.manual_seed(2)

VOCAB = 40


def synthetic_tweets(n=24, length=10):
    labels = torch.randint(0, 6, (n,))
    tokens = torch.randint(1, VOCAB, (n, length))
    tokens[:, 0] = labels + 1  # a cue token per class
    lengths = torch.randint(4, length + 1, (n,))
    pad = torch.arange(length)[None, :] >= lengths[:, None]
    return tokens.masked_fill(pad, 0), labels


def finetune(model, data, epochs=3, batch_size=8):
    tokens, labels = data
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    model.train()
    for epoch in range(epochs):
        total = 0.0
        for i in range(0, tokens.shape[0], batch_size):
            logits = model(tokens[i:i + batch_size])
            loss = criterion(logits, labels[i:i + batch_size])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} mean loss {total / 3:.4f}")


if __name__ == "__main__":
    finetune(EmojiPredictor(VOCAB), synthetic_tweets())
