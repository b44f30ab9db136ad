"""House-price regression with a tiny in-house Trainer (fit loop + callbacks). The plateau
callback lowers the learning rate when the epoch loss stalls."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import PrintProgress, ReduceLROnPlateau

torch.manual_seed(0)
N_FEATURES = 8


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model, self.optimizer, self.callbacks = model, optimizer, list(callbacks)

    def _emit(self, event, *args):
        for callback in self.callbacks:
            getattr(callback, event)(self, *args)

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            self.model.train()
            self._emit("on_epoch_begin", epoch)
            for i, (x, y) in enumerate(batches):
                pred = self.model(x).squeeze(-1)
                loss = F.smooth_l1_loss(pred, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self._emit("on_batch_end", i, {"loss": loss, "pred": pred, "size": len(y)})
            self._emit("on_epoch_end", epoch)
            print(f"epoch {epoch} done")


def housing_data(n_batches, batch_size=32):
    w = torch.randn(N_FEATURES)
    data = []
    for _ in range(n_batches):
        x = torch.randn(batch_size, N_FEATURES)
        data.append((x, x @ w + 0.3 * torch.randn(batch_size)))
    return data


model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(),
                      nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
trainer = Trainer(model, optimizer, [ReduceLROnPlateau(), PrintProgress()])
trainer.fit(housing_data(10), epochs=3)
