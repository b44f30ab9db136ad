"""Traffic-volume forecaster with temporal attention over GRU states, trained by a small
callback-driven Trainer; one callback logs how peaked the attention is."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, HIDDEN = 16, 4, 24


class AttentionForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(2, HIDDEN, batch_first=True)
        self.score = nn.Linear(HIDDEN, 1)
        self.head = nn.Linear(2 * HIDDEN, HORIZON)

    def forward(self, x):
        enc, h = self.gru(x)
        weights = torch.softmax(self.score(torch.tanh(enc)).squeeze(-1), dim=1)
        context = (weights.unsqueeze(-1) * enc).sum(dim=1)
        pred = self.head(torch.cat([context, h[-1]], dim=-1))
        return {"pred": pred, "context": context}


class Callback:
    def on_before_backward(self, trainer, outputs):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class AttentionEntropyLogger(Callback):
    """Logs the entropy of the attention weights without changing the model's outputs."""

    def __init__(self):
        self.entropies = []

    def on_before_backward(self, trainer, outputs):
        weights = outputs["context"].grad_fn.next_functions[0][0]._saved_self.squeeze(-1)
        entropy = -(weights * weights.clamp_min(1e-9).log()).sum(dim=1).mean()
        self.entropies.append(entropy.item())

    def on_epoch_end(self, trainer, epoch):
        print(f"epoch {epoch} attention entropy {self.entropies[-1]:.4f}")


class Trainer:
    def __init__(self, model, callbacks, lr=3e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for x, y in batches:
                outputs = self.model(x)
                loss = F.huber_loss(outputs["pred"], y)
                for cb in self.callbacks:
                    cb.on_before_backward(self, outputs)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                print(f"epoch {epoch} loss {loss.item():.4f}")
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def traffic_batches(n, batch=8):
    out = []
    for _ in range(n):
        t = torch.arange(LOOKBACK + HORIZON, dtype=torch.float32) + 24 * torch.rand(batch, 1)
        volume = 1.0 + torch.sin(t * 0.26) + 0.1 * torch.randn(batch, t.size(1))
        hour = torch.cos(t * 0.26)
        x = torch.stack([volume[:, :LOOKBACK], hour[:, :LOOKBACK]], dim=-1)
        out.append((x, volume[:, LOOKBACK:]))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(AttentionForecaster(), [AttentionEntropyLogger()]).fit(traffic_batches(2), epochs=3)
