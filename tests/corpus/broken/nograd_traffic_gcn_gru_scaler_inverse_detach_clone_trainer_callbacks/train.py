"""Traffic speed forecasting on a 6-sensor road graph: a graph convolution mixes each
5-minute reading with the neighbouring sensors, a GRU runs over the last 8 readings of every
sensor, and a linear head predicts the next 3. As in DCRNN, the masked MAE is taken in mph,
after undoing the input scaling."""
import torch
import torch.nn as nn

from scaler import StandardScaler

torch.manual_seed(0)
N_SENSORS, T_IN, T_OUT = 6, 8, 3
EDGES = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (1, 4)]


def normalized_adjacency():
    a = torch.eye(N_SENSORS)
    for i, j in EDGES:
        a[i, j] = a[j, i] = 1.0
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


def speed_series(steps=240):
    t = torch.arange(steps).float()
    rush = 20 * torch.exp(-((t % 96 - 34) ** 2) / 50)
    base = 60 - rush[:, None] * torch.linspace(0.6, 1.2, N_SENSORS)
    return base + 2 * torch.randn(steps, N_SENSORS)


class GraphGRU(nn.Module):
    def __init__(self, adj, hidden=16):
        super().__init__()
        self.register_buffer("adj", adj)
        self.gc = nn.Linear(1, hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, T_OUT)

    def forward(self, x):                                  # x: (B, T_IN, N)
        h = torch.relu(self.gc(torch.einsum("ij,btj->bti", self.adj, x)[..., None]))
        b = x.shape[0]
        h = h.permute(0, 2, 1, 3).reshape(b * N_SENSORS, T_IN, -1)
        out, _ = self.gru(h)
        return self.head(out[:, -1]).view(b, N_SENSORS, T_OUT).transpose(1, 2)


def masked_mae(pred, target, null_value=0.0):
    mask = (target != null_value).float()
    return ((pred - target).abs() * mask).sum() / mask.sum()


class Callback:
    def on_batch_end(self, trainer, loss): pass
    def on_epoch_end(self, trainer, epoch): pass


class History(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, trainer, loss):
        self.losses.append(loss)

    def on_epoch_end(self, trainer, epoch):
        recent = self.losses[-trainer.batches_per_epoch:]
        print(f"epoch {epoch} train MAE {sum(recent) / len(recent):.3f} mph")


class Trainer:
    def __init__(self, model, scaler, callbacks=(), lr=1e-2):
        self.model, self.scaler = model, scaler
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.callbacks = list(callbacks)
        self.batches_per_epoch = 0

    def training_step(self, x_scaled, y_raw):
        pred = self.scaler.inverse_transform(self.model(x_scaled))
        loss = masked_mae(pred, y_raw)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, windows, epochs):
        self.batches_per_epoch = len(windows)
        for epoch in range(epochs):
            for x, y in windows:
                loss = self.training_step(self.scaler.transform(x), y)
                for cb in self.callbacks:
                    cb.on_batch_end(self, loss)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


series = speed_series()
scaler = StandardScaler(series[:160])
starts = torch.arange(0, 160 - T_IN - T_OUT, 4)
x_all = torch.stack([series[s:s + T_IN] for s in starts])
y_all = torch.stack([series[s + T_IN:s + T_IN + T_OUT] for s in starts])
windows = [(x_all[i:i + 12], y_all[i:i + 12]) for i in range(0, 36, 12)]

trainer = Trainer(GraphGRU(normalized_adjacency()), scaler, callbacks=[History()])
trainer.fit(windows, epochs=2)
