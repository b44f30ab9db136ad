"""Train the DLRM on synthetic impressions: 6 dense counters, 3 categorical fields, a
hidden logistic click model."""
import torch
import torch.nn.functional as F

from model import DLRM

CARDINALITIES = [50, 20, 10]
N_DENSE = 6


def make_impressions(n, gen):
    dense = torch.log1p(torch.rand(n, N_DENSE, generator=gen) * 100)
    sparse = torch.stack([torch.randint(0, c, (n,), generator=gen) for c in CARDINALITIES], 1)
    field_bias = [torch.randn(c, generator=gen) * 0.5 for c in CARDINALITIES]
    logit = 0.3 * dense[:, 0] - 0.2 * dense[:, 3] + sum(b[sparse[:, i]] for i, b in enumerate(field_bias))
    clicks = torch.bernoulli(torch.sigmoid(logit - 0.5), generator=gen)
    return dense, sparse, clicks


def train(epochs=2, batch_size=64):
    gen = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    dense, sparse, clicks = make_impressions(256, gen)
    model = DLRM(N_DENSE, CARDINALITIES)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for start in range(0, 192, batch_size):
            sl = slice(start, start + batch_size)
            logits = model(dense[sl], sparse[sl])
            loss = F.binary_cross_entropy_with_logits(logits, clicks[sl])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} train logloss {total / 3:.4f}")
    model.eval()
    with torch.no_grad():
        val = F.binary_cross_entropy_with_logits(model(dense[192:], sparse[192:]), clicks[192:])
    print(f"validation logloss {val.item():.4f}")


if __name__ == "__main__":
    train()
