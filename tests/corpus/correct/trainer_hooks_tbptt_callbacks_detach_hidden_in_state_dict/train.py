"""Human-activity recognition from accelerometer streams, labelled per time step. A small
Trainer runs truncated BPTT over long recordings and keeps its mutable state in a dict
(trainer.state). Callbacks own the recurrent-state policy: one drops the GRU state at
each epoch start, another detaches it at the start of every chunk; a third keeps an EMA
of the loss as a float and logs it."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CHANNELS, ACTIVITIES, CHUNK, EPOCHS = 3, 4, 16, 2


def recordings(gen, batch=4, length=64):
    t = torch.arange(length, dtype=torch.float32)
    segments = torch.randint(0, ACTIVITIES, (batch, length // 16), generator=gen)
    labels = segments.repeat_interleave(16, dim=1)
    freq = 0.1 + 0.15 * labels.float()
    signal = torch.stack([torch.sin(2 * math.pi * freq * t), torch.cos(2 * math.pi * freq * t),
                          0.3 * labels.float()], dim=-1)
    return signal + 0.1 * torch.randn(batch, length, CHANNELS, generator=gen), labels


class Callback:
    def on_epoch_start(self, trainer): pass
    def on_chunk_start(self, trainer): pass
    def on_chunk_end(self, trainer, loss): pass


class ResetStateEachEpoch(Callback):
    def on_epoch_start(self, trainer):
        trainer.state["hidden"] = None


class TruncateBPTT(Callback):
    def on_chunk_start(self, trainer):
        if trainer.state["hidden"] is not None:
            trainer.state["hidden"] = trainer.state["hidden"].detach()


class LossEMALogger(Callback):
    def on_chunk_end(self, trainer, loss):
        value = loss.item()
        ema = trainer.state.get("loss_ema")
        trainer.state["loss_ema"] = value if ema is None else 0.8 * ema + 0.2 * value
        print(f"  step {trainer.state['step']} loss {value:.4f} ema {trainer.state['loss_ema']:.4f}")


class ActivityGRU(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.inp = nn.Linear(CHANNELS, hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.cls = nn.Linear(hidden, ACTIVITIES)

    def forward(self, x, h):
        out, h = self.gru(F.gelu(self.inp(x)), h)
        return self.cls(out), h


class Trainer:
    def __init__(self, model, callbacks):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=1e-2)
        self.state = {"hidden": None, "step": 0}

    def _emit(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def fit(self, x, y):
        for epoch in range(EPOCHS):
            self._emit("on_epoch_start")
            correct = 0
            for start in range(0, x.size(1), CHUNK):
                self._emit("on_chunk_start")
                chunk = x[:, start:start + CHUNK]
                logits, self.state["hidden"] = self.model(chunk, self.state["hidden"])
                target = y[:, start:start + CHUNK]
                loss = F.cross_entropy(logits.reshape(-1, ACTIVITIES), target.reshape(-1))
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.state["step"] += 1
                correct += (logits.argmax(-1) == target).sum().item()
                self._emit("on_chunk_end", loss)
            print(f"epoch {epoch} frame accuracy {correct / y.numel():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = recordings(torch.Generator().manual_seed(6))
    model = ActivityGRU()
    trainer = Trainer(model, [ResetStateEachEpoch(), TruncateBPTT(), LossEMALogger()])
    trainer.fit(x, y)
    print(f"param checksum {sum(p.detach().sum().item() for p in model.parameters()):.6f}")
