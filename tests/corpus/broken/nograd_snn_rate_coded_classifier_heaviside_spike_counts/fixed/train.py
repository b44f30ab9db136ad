"""Rate-coded spiking classifier: Poisson spike trains from 3 classes of 12-channel
intensity patterns drive two layers of leaky integrate-and-fire neurons, and the class is
read out as the output neuron that fires most often."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_IN, N_HIDDEN, N_CLASSES, T_STEPS, BETA, THRESHOLD = 12, 40, 3, 20, 0.9, 1.0


class SurrogateSpike(torch.autograd.Function):
    """Heaviside step forward, fast-sigmoid derivative backward."""

    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v >= 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (1.0 + 10.0 * v.abs()) ** 2


def spike_fn(mem):
    """Heaviside step: a neuron fires when its membrane crosses the threshold."""
    return SurrogateSpike.apply(mem - THRESHOLD)


class LIFClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(N_IN, N_HIDDEN)
        self.fc2 = nn.Linear(N_HIDDEN, N_CLASSES)

    def forward(self, spikes_in):
        batch = spikes_in.shape[1]
        mem1 = torch.zeros(batch, N_HIDDEN)
        mem2 = torch.zeros(batch, N_CLASSES)
        counts = torch.zeros(batch, N_CLASSES)
        for t in range(T_STEPS):
            mem1 = BETA * mem1 + self.fc1(spikes_in[t])
            spk1 = spike_fn(mem1)
            mem1 = mem1 * (1.0 - spk1)
            mem2 = BETA * mem2 + self.fc2(spk1)
            spk2 = spike_fn(mem2)
            mem2 = mem2 * (1.0 - spk2)
            counts = counts + spk2
        return counts


def poisson_batch(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    rates = torch.full((n, N_IN), 0.05)
    for c in range(N_CLASSES):
        rates[labels == c, 4 * c:4 * c + 4] = 0.6
    return (torch.rand(T_STEPS, n, N_IN) < rates).float(), labels


def train(epochs=2, batches=3):
    model = LIFClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(epochs):
        for _ in range(batches):
            spikes_in, labels = poisson_batch(32)
            spike_counts = model(spikes_in)
            loss = F.cross_entropy(spike_counts / T_STEPS * 5.0, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = (spike_counts.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f}")
    return model


model = train()
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
