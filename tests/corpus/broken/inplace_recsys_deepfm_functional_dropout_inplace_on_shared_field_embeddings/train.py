"""Train DeepFM on synthetic ad impressions (user segment, ad category, hour, device)."""
import torch
import torch.nn.functional as F

from model import DeepFM

torch.manual_seed(0)
FIELDS = [10, 6, 24, 3]


def impressions(n):
    x = torch.stack([torch.randint(0, s, (n,)) for s in FIELDS], 1)
    affinity = ((x[:, 0] % 3) == (x[:, 1] % 3)).float()
    evening = (x[:, 2] >= 18).float()
    logit = 1.5 * affinity + 0.8 * evening * (x[:, 3] == 0).float() - 1.0
    return x, torch.bernoulli(torch.sigmoid(logit))


def main():
    model = DeepFM(FIELDS)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    train_batches = [impressions(128) for _ in range(3)]
    for epoch in range(2):
        model.train()
        running = 0.0
        for x, y in train_batches:
            logits = model(x)
            loss = F.binary_cross_entropy_with_logits(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        model.eval()
        with torch.no_grad():
            x, y = impressions(512)
            acc = ((model(x) > 0).float() == y).float().mean().item()
        print(f"epoch {epoch} logloss {running / len(train_batches):.4f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
