"""Latency (time-to-first-spike) coded classifier: inputs are encoded as
spike latencies, a two-layer LIF network runs for T steps, and the class
whose output neuron fires first should win. Trained with an arctan
surrogate gradient."""
import torch
import torch.nn as nn
import torch.nn.functional as F

T, N_IN, N_HID, N_OUT = 16, 12, 32, 3


class SurrogateSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, g):
        (v,) = ctx.saved_tensors
        return g / (1 + (3.14159 * v) ** 2)


class LatencySNN(nn.Module):
    def __init__(self, beta=0.9):
        super().__init__()
        self.fc1 = nn.Linear(N_IN, N_HID)
        self.fc2 = nn.Linear(N_HID, N_OUT)
        self.beta = beta

    def forward(self, spikes_in):  # [T, B, N_IN]
        v1 = torch.zeros(spikes_in.shape[1], N_HID)
        v2 = torch.zeros(spikes_in.shape[1], N_OUT)
        record = []
        for x_t in spikes_in:
            v1 = self.beta * v1 + self.fc1(x_t)
            s1 = SurrogateSpike.apply(v1 - 1.0)
            v1 = v1 * (1 - s1)
            v2 = self.beta * v2 + self.fc2(s1)
            s2 = SurrogateSpike.apply(v2 - 1.0)
            v2 = v2 * (1 - s2)
            record.append(s2)
        return torch.stack(record)  # [T, B, N_OUT]


def latency_encode(x):
    """Brighter features spike earlier: one spike per feature."""
    t_fire = ((1 - x) * (T - 1)).round().long()
    return F.one_hot(t_fire, T).permute(2, 0, 1).float()


class Trainer:
    def __init__(self):
        self.net = LatencySNN()
        self.opt = torch.optim.Adam(self.net.parameters(), lr=3e-3)

    def step(self, x, y):
        spk_out = self.net(latency_encode(x))
        # time of the first output spike per class (earliest spike wins)
        first_spike = spk_out.argmax(dim=0).float()
        loss = F.cross_entropy(-first_spike, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item(), (first_spike.argmin(1) == y).float().mean().item()


def dataset(n, batch=16, seed=6):
    g = torch.Generator().manual_seed(seed)
    protos = torch.rand(N_OUT, N_IN, generator=g)
    out = []
    for _ in range(n):
        y = torch.randint(0, N_OUT, (batch,), generator=g)
        out.append(((protos[y] + 0.1 * torch.randn(batch, N_IN, generator=g)).clamp(0, 1), y))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer()
    for epoch in range(2):
        for i, (x, y) in enumerate(dataset(3)):
            loss, acc = trainer.step(x, y)
            print(f"epoch {epoch} batch {i} loss {loss:.4f} acc {acc:.2f}")
