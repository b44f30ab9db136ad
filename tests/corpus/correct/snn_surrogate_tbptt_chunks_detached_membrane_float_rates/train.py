"""Recurrent spiking network (LIF neurons, fast-sigmoid surrogate gradient) classifying
noisy rate-coded spike trains. Long sequences are trained with truncated BPTT: the membrane
state is carried across chunks but detached at each boundary; firing rates are logged as floats."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HID, N_OUT, SEQ, CHUNK = 12, 24, 3, 24, 8


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


class RecurrentLIF(nn.Module):
    def __init__(self, beta=0.85, threshold=1.0):
        super().__init__()
        self.fc_in = nn.Linear(N_IN, N_HID)
        self.fc_rec = nn.Linear(N_HID, N_HID, bias=False)
        self.readout = nn.Linear(N_HID, N_OUT)
        self.beta, self.threshold = beta, threshold

    def forward(self, x_chunk, state):
        mem, spk = state
        logits, spikes = [], []
        for t in range(x_chunk.size(1)):
            mem = self.beta * mem + self.fc_in(x_chunk[:, t]) + self.fc_rec(spk)
            spk = FastSigmoidSpike.apply(mem - self.threshold, 10.0)
            mem = mem - spk * self.threshold
            logits.append(self.readout(spk))
            spikes.append(spk)
        return torch.stack(logits, 1), torch.stack(spikes, 1), (mem, spk)


def make_data(n, gen):
    labels = torch.randint(0, N_OUT, (n,), generator=gen)
    rates = torch.full((n, N_IN), 0.05)
    for c in range(N_OUT):
        rates[labels == c, c * 4:(c + 1) * 4] = 0.6
    spikes = (torch.rand(n, SEQ, N_IN, generator=gen) < rates.unsqueeze(1)).float()
    return spikes, labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    net = RecurrentLIF()
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
    x, y = make_data(32, gen)
    for epoch in range(3):
        state = (torch.zeros(32, N_HID), torch.zeros(32, N_HID))
        rates = []
        for start in range(0, SEQ, CHUNK):
            state = tuple(s.detach() for s in state)
            logits, spikes, state = net(x[:, start:start + CHUNK], state)
            loss = F.cross_entropy(logits.mean(1), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            rates.append(spikes.mean().item())
        print(f"epoch {epoch} last-chunk loss {loss.item():.4f} "
              f"firing rate {sum(rates) / len(rates):.4f}")
    checksum = sum(p.detach().double().sum().item() for p in net.parameters())
    print(f"parameter checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
