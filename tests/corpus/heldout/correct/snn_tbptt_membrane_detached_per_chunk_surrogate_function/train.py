"""Recurrent LIF network on long synthetic EMG streams trained with
truncated BPTT: the stream is cut into chunks, the membrane potentials run
on across chunk boundaries but are detached there, and each chunk is
backwarded once. The spike nonlinearity is a custom autograd.Function."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CHUNK, N_CHUNKS, N_IN, N_HID = 8, 4, 6, 24


class BoxcarSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad):
        (v,) = ctx.saved_tensors
        return grad * (v.abs() < 0.5).float()


class RecurrentLIF(nn.Module):
    def __init__(self, beta=0.9):
        super().__init__()
        self.w_in = nn.Linear(N_IN, N_HID)
        self.w_rec = nn.Linear(N_HID, N_HID, bias=False)
        self.readout = nn.Linear(N_HID, 1)
        self.beta = beta

    def forward(self, x_chunk, state):
        v, s = state
        outputs = []
        for x_t in x_chunk:
            v = self.beta * v + self.w_in(x_t) + self.w_rec(s) - s  # soft reset
            s = BoxcarSpike.apply(v - 1.0)
            outputs.append(self.readout(v))
        return torch.stack(outputs), (v, s)


def stream(batch=8, seed=30):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(CHUNK * N_CHUNKS, batch, N_IN, generator=g)
    target = torch.cumsum(x[..., :1], 0) * 0.1
    return x, target


torch.manual_seed(0)
model = RecurrentLIF()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
x, target = stream()
for epoch in range(2):
    state = (torch.zeros(x.shape[1], N_HID), torch.zeros(x.shape[1], N_HID))
    losses = []
    for c in range(N_CHUNKS):
        sl = slice(c * CHUNK, (c + 1) * CHUNK)
        state = tuple(t.detach() for t in state)
        pred, state = model(x[sl], state)
        loss = F.mse_loss(pred, target[sl])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(f"epoch {epoch} chunk losses {[round(v, 4) for v in losses]}")
print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
