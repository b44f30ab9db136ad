"""Two-layer LIF spiking network on synthetic event-camera clips, trained
with BPTT and a fast-sigmoid surrogate gradient. Memory is tight, so the
loss is accumulated over ACCUM micro-batches before each optimizer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, N_IN, N_HID, N_OUT = 12, 32, 48, 4
ACCUM = 2
BETA = 0.85


class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem):
        ctx.save_for_backward(mem)
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (mem,) = ctx.saved_tensors
        return grad_out / (1 + 10 * mem.abs()) ** 2


spike = FastSigmoidSpike.apply


class GestureSNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(N_IN, N_HID)
        self.fc2 = nn.Linear(N_HID, N_OUT)

    def forward(self, events):  # events: [T, B, N_IN]
        mem1 = torch.zeros(events.shape[1], N_HID)
        mem2 = torch.zeros(events.shape[1], N_OUT)
        out_spikes = []
        for t in range(events.shape[0]):
            mem1 = BETA * mem1 + self.fc1(events[t])
            s1 = spike(mem1 - 1.0)
            mem1 = mem1 - s1
            mem2 = BETA * mem2 + self.fc2(s1)
            s2 = spike(mem2 - 1.0)
            mem2 = mem2 - s2
            out_spikes.append(s2)
        return torch.stack(out_spikes).sum(0)


def event_clips(n_batches, batch=8, seed=11):
    g = torch.Generator().manual_seed(seed)
    rates = torch.rand(N_OUT, N_IN, generator=g) * 0.4
    clips = []
    for _ in range(n_batches):
        y = torch.randint(0, N_OUT, (batch,), generator=g)
        ev = (torch.rand(T_STEPS, batch, N_IN, generator=g) < rates[y]).float()
        clips.append((ev, y))
    return clips


torch.manual_seed(0)
model = GestureSNN()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
data = event_clips(4)

for epoch in range(2):
    optimizer.zero_grad()
    for i, (events, labels) in enumerate(data):
        counts = model(events)
        loss = F.cross_entropy(counts, labels)
        (loss / ACCUM).backward()

        if (i + 1) % ACCUM == 0:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
        print(f"epoch {epoch} batch {i} loss {loss.item():.4f} spikes {counts.sum().item():.0f}")

print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
