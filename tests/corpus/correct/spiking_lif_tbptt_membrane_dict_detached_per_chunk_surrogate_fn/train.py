"""Spiking gesture classifier (two LIF layers, surrogate gradient) trained with truncated
backpropagation through time: every sequence is cut into chunks, the membrane potentials
are carried from chunk to chunk in a dict keyed by layer name, and detached at each chunk
boundary so that every backward only covers its own chunk."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HID, N_CLASSES, T_TOTAL, CHUNK = 12, 24, 3, 24, 6


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v, slope):
        ctx.save_for_backward(v)
        ctx.slope = slope
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        surrogate = ctx.slope / (1.0 + ctx.slope * v.abs()) ** 2
        return grad_out * surrogate, None


class LIFLayer(nn.Module):
    def __init__(self, n_in, n_out, beta=0.85, threshold=1.0):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.beta, self.threshold = beta, threshold

    def forward(self, x, mem):
        mem = self.beta * mem + self.fc(x)
        spk = SpikeFn.apply(mem - self.threshold, 5.0)
        mem = mem - spk * self.threshold
        return spk, mem


class SpikingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"lif1": LIFLayer(N_IN, N_HID), "lif2": LIFLayer(N_HID, N_HID)})
        self.readout = nn.Linear(N_HID, N_CLASSES)

    def init_state(self, batch):
        return {name: torch.zeros(batch, N_HID) for name in self.layers}

    def forward(self, frames, state):
        logits = 0.0
        for t in range(frames.shape[1]):
            x = frames[:, t]
            for name, layer in self.layers.items():
                x, state[name] = layer(x, state[name])
            logits = logits + self.readout(x)
        return logits / frames.shape[1], state


def gesture_events(batch):
    labels = torch.randint(0, N_CLASSES, (batch,))
    rates = 0.1 + 0.5 * F.one_hot(labels, N_CLASSES).float().repeat_interleave(N_IN // N_CLASSES, 1)
    events = (torch.rand(batch, T_TOTAL, N_IN) < rates[:, None, :]).float()
    return events, labels


def train(sequences=3, batch=8):
    torch.manual_seed(0)
    net = SpikingNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
    for seq in range(sequences):
        events, labels = gesture_events(batch)
        state = net.init_state(batch)
        for c in range(T_TOTAL // CHUNK):
            state = {name: mem.detach() for name, mem in state.items()}
            logits, state = net(events[:, c * CHUNK:(c + 1) * CHUNK], state)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"seq {seq} chunk {c}: loss {loss.item():.4f}")
    checksum = sum(p.detach().abs().sum().item() for p in net.parameters())
    print(f"parameter checksum {checksum:.4f}")


if __name__ == "__main__":
    train()
