"""Two-layer spiking network (leaky integrate-and-fire) on rate-coded inputs, trained with a
fast-sigmoid surrogate gradient. Each LIF layer keeps the autograd nodes of its spike
function so a monitor can report how many neurons sit close to threshold."""
import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, N_IN, N_HID, N_OUT = 12, 20, 32, 3


class SurrogateSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem, slope):
        ctx.save_for_backward(mem)
        ctx.slope = slope
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_spk):
        (mem,) = ctx.saved_tensors
        return grad_spk / (ctx.slope * mem.abs() + 1.0) ** 2, None


class LIFLayer(nn.Module):
    def __init__(self, in_dim, out_dim, beta=0.85, threshold=1.0, slope=5.0):
        super().__init__()
        self.fc = nn.Linear(in_dim, out_dim)
        self.beta, self.threshold, self.slope = beta, threshold, slope
        self.spike_nodes = []

    def forward(self, x_seq):
        self.spike_nodes = []
        mem = torch.zeros(x_seq.size(1), self.fc.out_features)
        spikes = []
        for x in x_seq:
            mem = self.beta * mem + self.fc(x)
            spk = SurrogateSpike.apply(mem - self.threshold, self.slope)
            self.spike_nodes.append(spk.grad_fn)
            mem = mem - spk * self.threshold
            spikes.append(spk)
        return torch.stack(spikes)


def near_threshold_fraction(layer, margin=0.2):
    fractions = []
    for node in layer.spike_nodes:
        (mem,) = node.saved_tensors
        fractions.append((mem.abs() < margin).float().mean())
    return torch.stack(fractions).mean().item()


def rate_coded_batch(prototypes, batch=32):
    labels = torch.randint(0, N_OUT, (batch,))
    rates = prototypes[labels]
    return (torch.rand(T_STEPS, batch, N_IN) < rates).float(), labels


torch.manual_seed(0)
prototypes = torch.rand(N_OUT, N_IN) * 0.8
net = nn.Sequential(LIFLayer(N_IN, N_HID), LIFLayer(N_HID, N_HID))
readout = nn.Linear(N_HID, N_OUT)
optimizer = torch.optim.Adam(list(net.parameters()) + list(readout.parameters()), lr=5e-3)
for step in range(6):
    spikes_in, labels = rate_coded_batch(prototypes)
    rates = net(spikes_in).mean(dim=0)
    loss = F.cross_entropy(readout(rates), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    near = near_threshold_fraction(net[0])
    print(f"step {step} loss {loss.item():.4f} hidden near threshold {near:.3f}")
