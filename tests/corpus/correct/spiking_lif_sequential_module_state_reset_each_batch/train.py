"""Spiking MLP classifier with leaky integrate-and-fire layers that keep their membrane
potential on the module between time steps (snnTorch init_hidden style). A surrogate
gradient custom autograd.Function replaces the Heaviside derivative. Every batch starts by
resetting the membrane state of all LIF layers; the loss over the spike-count readout is
backpropagated once per batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN, HID, CLASSES, STEPS, BATCH, ITERS = 20, 32, 3, 12, 16, 6


class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v, slope):
        ctx.save_for_backward(v)
        ctx.slope = slope
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (ctx.slope * v.abs() + 1.0) ** 2, None


class LIF(nn.Module):
    def __init__(self, beta=0.85, threshold=1.0, slope=10.0):
        super().__init__()
        self.beta, self.threshold, self.slope = beta, threshold, slope
        self.mem = None
        self.spike_count = 0.0

    def reset_state(self):
        self.mem = None
        self.spike_count = 0.0

    def forward(self, current):
        if self.mem is None:
            self.mem = torch.zeros_like(current)
        self.mem = self.beta * self.mem + current
        spk = FastSigmoidSpike.apply(self.mem - self.threshold, self.slope)
        self.mem = self.mem - spk * self.threshold
        self.spike_count += spk.detach().mean().item()
        return spk


def reset_net(net):
    for module in net.modules():
        if isinstance(module, LIF):
            module.reset_state()


def poisson_batch(gen):
    labels = torch.randint(0, CLASSES, (BATCH,), generator=gen)
    group = torch.arange(IN).unsqueeze(0) // (IN // CLASSES + 1)
    return 0.05 + 0.6 * (group == labels.unsqueeze(1)).float(), labels


torch.manual_seed(0)
gen = torch.Generator().manual_seed(4)
net = nn.Sequential(nn.Linear(IN, HID), LIF(), nn.Linear(HID, CLASSES), LIF(beta=0.9))
optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
for it in range(ITERS):
    rates, labels = poisson_batch(gen)
    reset_net(net)
    counts = 0
    for t in range(STEPS):
        spikes_in = (torch.rand(rates.shape, generator=gen) < rates).float()
        counts = counts + net(spikes_in)
    loss = F.cross_entropy(counts, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (counts.argmax(dim=1) == labels).float().mean().item()
    print(f"iter {it} loss {loss.item():.4f} acc {acc:.3f} "
          f"hidden rate {net[1].spike_count / STEPS:.3f} "
          f"output rate {net[3].spike_count / STEPS:.3f}")
print(f"param checksum {sum(p.detach().sum().item() for p in net.parameters()):.6f}")
