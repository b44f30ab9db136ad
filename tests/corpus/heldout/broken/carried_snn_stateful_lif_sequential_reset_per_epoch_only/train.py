"""Two-layer spiking MLP on rate-coded synthetic patterns. The LIF layers are stateful
(snntorch-style init_hidden): each keeps its membrane potential in self.mem between calls."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HIDDEN, N_CLASSES, NUM_STEPS = 20, 32, 3, 8


class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem_minus_thr, slope=25.0):
        ctx.save_for_backward(mem_minus_thr)
        ctx.slope = slope
        return (mem_minus_thr > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out / (ctx.slope * x.abs() + 1.0) ** 2, None


class StatefulLIF(nn.Module):
    def __init__(self, beta=0.85, threshold=1.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold
        self.mem = None

    def reset_state(self):
        self.mem = None

    def forward(self, current):
        if self.mem is None:
            self.mem = torch.zeros_like(current)
        self.mem = self.beta * self.mem + current
        spk = FastSigmoidSpike.apply(self.mem - self.threshold)
        self.mem = self.mem - spk * self.threshold  # soft reset, gradient flows through spk
        return spk


def reset_states(net):
    for module in net.modules():
        if isinstance(module, StatefulLIF):
            module.reset_state()


def make_dataset(n_batches=3, batch_size=12):
    prototypes = torch.rand(N_CLASSES, N_IN)
    data = []
    for _ in range(n_batches):
        labels = torch.randint(0, N_CLASSES, (batch_size,))
        rates = (prototypes[labels] + 0.1 * torch.randn(batch_size, N_IN)).clamp(0, 1)
        spikes = (torch.rand(NUM_STEPS, batch_size, N_IN) < rates).float()
        data.append((spikes, labels))
    return data


def run_network(net, spike_train):
    counts = 0
    for t in range(NUM_STEPS):
        counts = counts + net(spike_train[t])
    return counts


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Linear(N_IN, N_HIDDEN), StatefulLIF(),
        nn.Linear(N_HIDDEN, N_CLASSES), StatefulLIF(beta=0.9),
    )
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
    dataset = make_dataset()
    for epoch in range(2):
        reset_states(net)
        correct = total = 0
        for spikes, labels in dataset:
            counts = run_network(net, spikes)
            loss = F.cross_entropy(counts, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (counts.argmax(1) == labels).sum().item()
            total += labels.numel()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {correct / total:.3f}")
