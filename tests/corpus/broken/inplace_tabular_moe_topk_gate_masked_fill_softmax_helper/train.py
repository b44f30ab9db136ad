"""House-price regression on synthetic tabular data with a sparse mixture of experts.
Numeric features are standardised; the target is log price."""
import torch
import torch.nn.functional as F

from moe import MixtureOfExperts

FEATURES = ["sqft", "bedrooms", "bathrooms", "age", "lot_size", "dist_center", "garage", "school_score"]


def synth_houses(n, generator):
    x = torch.randn(n, len(FEATURES), generator=generator)
    urban = (x[:, 5] < 0).float()
    log_price = (12.0 + 0.4 * x[:, 0] + 0.1 * x[:, 2] - 0.15 * x[:, 3]
                 + urban * (0.3 * x[:, 7]) + (1 - urban) * (0.2 * x[:, 4])
                 + 0.05 * torch.randn(n, generator=generator))
    return x, log_price


def batches(x, y, size):
    for start in range(0, len(x), size):
        yield x[start:start + size], y[start:start + size]


def train(epochs=2, batch_size=64, balance_weight=0.01):
    gen = torch.Generator().manual_seed(1)
    x, y = synth_houses(256, gen)
    mean, std = x.mean(0), x.std(0)
    x = (x - mean) / std
    y_mean = y.mean()
    model = MixtureOfExperts(dim=len(FEATURES))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    for epoch in range(epochs):
        total, seen = 0.0, 0
        for xb, yb in batches(x, y, batch_size):
            pred, gates = model(xb)
            mse = F.mse_loss(pred, yb - y_mean)
            loss = mse + balance_weight * model.load_balance_loss(gates)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += mse.item() * len(xb)
            seen += len(xb)
        print(f"epoch {epoch} train mse {total / seen:.4f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    trained = train()
    print("router bias", [round(v, 3) for v in trained.router.proj.bias.tolist()])
