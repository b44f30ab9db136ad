"""Learn a quadrotor's vertical dynamics from one long flight log with truncated BPTT.

The GRU state and the previous prediction are carried from chunk to chunk, but both are
detached at the chunk boundary, so each backward only walks the current chunk's graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)
DT, CHUNK = 0.02, 10


def flight_log(n_steps):
    """Yields (thrust command, measured vertical acceleration) chunk by chunk."""
    z_vel = torch.zeros(1)
    thrust = 0.5 + 0.2 * torch.sin(torch.arange(n_steps) * 0.07) + 0.05 * torch.randn(n_steps)
    acc = torch.empty(n_steps)
    for t in range(n_steps):
        acc[t] = 9.81 * (thrust[t] / 0.5 - 1.0) - 0.4 * z_vel
        z_vel = z_vel + DT * acc[t]
    for start in range(0, n_steps - CHUNK + 1, CHUNK):
        yield thrust[start:start + CHUNK, None], acc[start:start + CHUNK, None]


class DynamicsModel(nn.Module):
    def __init__(self, hidden=12):
        super().__init__()
        self.cell = nn.GRUCell(2, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, thrust_t, prev_acc, h):
        h = self.cell(torch.cat([thrust_t, prev_acc], dim=-1), h)
        return self.head(h), h


class TBPTTTrainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.h = torch.zeros(1, model.cell.hidden_size)
        self.prev_acc = torch.zeros(1, 1)

    def train_chunk(self, thrust, acc):
        h, prev = self.h, self.prev_acc
        preds = []
        for t in range(thrust.shape[0]):
            pred, h = self.model(thrust[t:t + 1], prev, h)
            preds.append(pred)
            prev = pred
        loss = F.mse_loss(torch.cat(preds), acc)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        # carry the state into the next chunk as plain data
        self.h = h.detach()
        self.prev_acc = prev.detach()
        return loss.item()


trainer = TBPTTTrainer(DynamicsModel())
for k, (thrust, acc) in enumerate(flight_log(60)):
    print(f"chunk {k} mse {trainer.train_chunk(thrust, acc):.5f}")
checksum = sum(p.detach().abs().sum().item() for p in trainer.model.parameters())
print(f"checksum {checksum:.6f}")
