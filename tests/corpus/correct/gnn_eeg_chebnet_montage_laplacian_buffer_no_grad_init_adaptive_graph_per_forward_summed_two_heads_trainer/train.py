"""EEG seizure detection + next-window band-power forecasting with a Chebyshev GCN.

Two graphs are mixed: the fixed montage graph (electrode distances on the scalp, not learned)
whose scaled Laplacian is built once in __init__ under no_grad and kept as a buffer, and an
adaptive graph from learned electrode embeddings, rebuilt on every forward. Both task losses
are summed and backwarded once per batch; a running band-power normaliser is updated under
no_grad."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ELECTRODES, N_BANDS, HIDDEN = 10, 5, 16


def scaled_laplacian(adj):
    adj = adj + torch.eye(adj.shape[0])
    d_inv_sqrt = adj.sum(1).rsqrt()
    return -(d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :])


class ChebConv(nn.Module):
    def __init__(self, in_dim, out_dim, k=3):
        super().__init__()
        self.lins = nn.ModuleList([nn.Linear(in_dim, out_dim, bias=(i == 0)) for i in range(k)])

    def forward(self, x, lap):
        t_prev, t_cur = x, lap @ x
        out = self.lins[0](t_prev) + self.lins[1](t_cur)
        for lin in self.lins[2:]:
            t_prev, t_cur = t_cur, 2 * (lap @ t_cur) - t_prev
            out = out + lin(t_cur)
        return out


class DualGraphChebNet(nn.Module):
    def __init__(self, coords, emb_dim=4):
        super().__init__()
        with torch.no_grad():
            dist = torch.cdist(coords, coords)
            montage = torch.exp(-dist.pow(2) / 0.5) * (1 - torch.eye(len(coords)))
            self.register_buffer("montage_lap", scaled_laplacian(montage))
        self.src = nn.Parameter(0.3 * torch.randn(len(coords), emb_dim))
        self.dst = nn.Parameter(0.3 * torch.randn(len(coords), emb_dim))
        self.mix = nn.Parameter(torch.zeros(()))
        self.conv1 = ChebConv(N_BANDS, HIDDEN)
        self.conv2 = ChebConv(HIDDEN, HIDDEN)
        self.cls_head = nn.Linear(HIDDEN, 2)
        self.forecast_head = nn.Linear(HIDDEN, N_BANDS)

    def forward(self, x):
        adaptive = torch.relu(torch.tanh(self.src @ self.dst.t()))
        adaptive_lap = scaled_laplacian(0.5 * (adaptive + adaptive.t()))
        w = torch.sigmoid(self.mix)
        lap = (1 - w) * self.montage_lap + w * adaptive_lap
        h = torch.relu(self.conv1(x, lap))
        h = torch.relu(self.conv2(h, lap))
        return self.cls_head(h.mean(dim=1)), self.forecast_head(h)


def make_windows(n):
    labels = torch.randint(0, 2, (n,))
    x = torch.randn(n, N_ELECTRODES, N_BANDS)
    x[labels == 1, :4, 1] += 1.5
    nxt = 0.7 * x + 0.2 * torch.randn_like(x)
    return x.abs(), nxt.abs(), labels


class Trainer:
    def __init__(self, model, forecast_weight=0.5, batch_size=8):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
        self.forecast_weight = forecast_weight
        self.batch_size = batch_size
        self.band_mean = torch.ones(N_BANDS)

    def train_step(self, x, nxt, y):
        with torch.no_grad():
            self.band_mean.lerp_(x.mean(dim=(0, 1)), 0.1)
        logits, forecast = self.model(x / self.band_mean)
        cls_loss = F.cross_entropy(logits, y)
        forecast_loss = F.mse_loss(forecast, nxt / self.band_mean)
        loss = cls_loss + self.forecast_weight * forecast_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return cls_loss.item(), forecast_loss.item()

    def fit(self, x, nxt, y, epochs):
        for epoch in range(epochs):
            for s in range(0, len(x), self.batch_size):
                sl = slice(s, s + self.batch_size)
                cls_loss, forecast_loss = self.train_step(x[sl], nxt[sl], y[sl])
            print(f"epoch {epoch} cls {cls_loss:.4f} forecast {forecast_loss:.4f} "
                  f"mix {torch.sigmoid(self.model.mix).item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    angles = torch.arange(N_ELECTRODES) * (2 * math.pi / N_ELECTRODES)
    coords = torch.stack([angles.cos(), angles.sin()], dim=1)
    model = DualGraphChebNet(coords)
    x, nxt, y = make_windows(24)
    Trainer(model).fit(x, nxt, y, epochs=3)
    checksum = sum(p.detach().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")
