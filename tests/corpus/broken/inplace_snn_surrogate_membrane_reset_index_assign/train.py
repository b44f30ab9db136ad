"""Two-layer leaky integrate-and-fire classifier on Poisson-coded inputs, trained through
time with a fast-sigmoid surrogate gradient. The hidden layer uses a hard reset: neurons
that fired have their membrane zeroed, written like the simulator reference code."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_IN, N_HID, N_OUT = 20, 32, 3
T_STEPS, BATCH = 8, 24
BETA, THRESHOLD, SLOPE, GAIN = 0.85, 1.0, 10.0, 2.5


class FastSigmoidSpike(torch.autograd.Function):
    """Heaviside step forward, derivative of a fast sigmoid backward."""

    @staticmethod
    def forward(ctx, mem):
        ctx.save_for_backward(mem)
        return (mem > THRESHOLD).float()

    @staticmethod
    def backward(ctx, grad_spk):
        (mem,) = ctx.saved_tensors
        return grad_spk / (SLOPE * (mem - THRESHOLD).abs() + 1.0) ** 2


spike_fn = FastSigmoidSpike.apply

fc1 = nn.Linear(N_IN, N_HID)
fc2 = nn.Linear(N_HID, N_OUT)
optimizer = torch.optim.Adam([*fc1.parameters(), *fc2.parameters()], lr=5e-3)

# each class has its own firing-rate profile over the input channels
class_rates = torch.rand(N_OUT, N_IN) * 0.8

for step in range(5):
    labels = torch.randint(0, N_OUT, (BATCH,))
    mem1 = torch.zeros(BATCH, N_HID)
    mem2 = torch.zeros(BATCH, N_OUT)
    n_spikes = 0.0
    for t in range(T_STEPS):
        x_t = (torch.rand(BATCH, N_IN) < class_rates[labels]).float()
        mem1 = BETA * mem1 + GAIN * fc1(x_t)
        spk1 = spike_fn(mem1)
        mem1[spk1.bool()] = 0.0  # hard reset of the neurons that fired
        mem2 = BETA * mem2 + fc2(spk1)  # non-spiking leaky readout
        n_spikes += spk1.sum().item()

    loss = F.cross_entropy(mem2, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    rate = n_spikes / (BATCH * N_HID * T_STEPS)
    print(f"step {step} loss {loss.item():.4f} hidden rate {rate:.3f}")
