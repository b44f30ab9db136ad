"""Streaming traffic-flow forecaster on a 5-sensor road graph, trained with truncated
backpropagation through time: a Trainer walks one long stream in chunks of 8 readings,
carrying the graph-GRU state on self.hidden from chunk to chunk (detached at the chunk
boundary). Callbacks log the gradient norm after backward and the carried state."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_SENSORS, HIDDEN, CHUNK = 5, 12, 8
ADJ = torch.tensor([[1, 1, 0, 0, 1], [1, 1, 1, 0, 0], [0, 1, 1, 1, 0],
                    [0, 0, 1, 1, 1], [1, 0, 0, 1, 1]], dtype=torch.float32)
ADJ = ADJ / ADJ.sum(1, keepdim=True)


class GraphGRUCell(nn.Module):
    """GRU cell whose input is the flow at each sensor averaged with its neighbours."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(2, HIDDEN)
        self.readout = nn.Linear(HIDDEN, 1)

    def forward(self, flow, hidden):              # flow: (N,), hidden: (N, HIDDEN)
        x = torch.stack([flow, ADJ @ flow], dim=1)
        hidden = self.cell(x, hidden)
        return self.readout(hidden).squeeze(1), hidden


class Callback:
    def on_after_backward(self, trainer): pass
    def on_chunk_end(self, trainer, loss): pass


class GradNormLogger(Callback):
    def on_after_backward(self, trainer):
        norms = [p.grad.norm() for p in trainer.model.parameters() if p.grad is not None]
        trainer.logs.setdefault("grad_norm", []).append(torch.stack(norms).norm().item())


class StateMonitor(Callback):
    def on_chunk_end(self, trainer, loss):
        trainer.logs.setdefault("state_norm", []).append(trainer.hidden.norm().item())


class Trainer:
    def __init__(self, model, callbacks, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.callbacks = callbacks
        self.hidden = torch.zeros(N_SENSORS, HIDDEN)
        self.logs = {}

    def train_chunk(self, chunk):
        self.hidden = self.hidden.detach()
        loss = 0.0
        for t in range(len(chunk) - 1):
            pred, self.hidden = self.model(chunk[t], self.hidden)
            loss = loss + F.smooth_l1_loss(pred, chunk[t + 1])
        loss = loss / (len(chunk) - 1)
        self.optimizer.zero_grad()
        loss.backward()
        for cb in self.callbacks:
            cb.on_after_backward(self)
        self.optimizer.step()
        for cb in self.callbacks:
            cb.on_chunk_end(self, loss.item())
        return loss.item()

    def fit(self, stream):
        losses = []
        for start in range(0, len(stream) - CHUNK + 1, CHUNK - 1):
            losses.append(self.train_chunk(stream[start:start + CHUNK]))
        return losses


t = torch.arange(50).float()
stream = (torch.sin(t / 4)[:, None] + 0.3 * torch.cos(t / 7)[:, None] * torch.arange(1, 6)
          + 0.05 * torch.randn(50, N_SENSORS))
trainer = Trainer(GraphGRUCell(), [GradNormLogger(), StateMonitor()])
for epoch in range(2):
    trainer.hidden = torch.zeros(N_SENSORS, HIDDEN)
    losses = trainer.fit(stream)
    print(f"epoch {epoch} chunk losses " + " ".join(f"{l:.4f}" for l in losses))
print("grad norms " + " ".join(f"{g:.4f}" for g in trainer.logs["grad_norm"][-3:]))
print(f"final state norm {trainer.logs['state_norm'][-1]:.4f}")
print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.6f}")
