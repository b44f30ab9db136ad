"""Streaming voice-activity detector for a low-power wake-up chip: a diagonal linear
recurrence (one learned leak per state channel) over log-mel frames, trained on long
recordings chunk by chunk so that training sees the state exactly as the device does.
retain_graph=True was added after the second chunk failed with "backward through the
graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, STATE, CHUNK, N_CHUNKS, BATCH = 20, 16, 10, 8, 4


class DiagonalRecurrence(nn.Module):
    """h_t = a * h_{t-1} + (1 - a) * W x_t, with a = sigmoid(decay_logit) per channel."""

    def __init__(self, n_in, n_state):
        super().__init__()
        self.inp = nn.Linear(n_in, n_state)
        self.decay_logit = nn.Parameter(torch.linspace(-1.0, 3.0, n_state))

    def forward(self, frames, state):
        a = torch.sigmoid(self.decay_logit)
        drive = self.inp(frames)
        states = []
        for t in range(frames.shape[1]):
            state = a * state + (1 - a) * drive[:, t]
            states.append(state)
        return torch.stack(states, dim=1), state


class StreamingVAD(nn.Module):
    def __init__(self):
        super().__init__()
        self.rec = DiagonalRecurrence(N_MELS, STATE)
        self.head = nn.Sequential(nn.Linear(STATE, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, frames, state):
        states, state = self.rec(frames, state)
        return self.head(states).squeeze(-1), state


def synthetic_recordings(gen):
    """Noise floor plus speech bursts that raise the low-mid mel bands."""
    frames = CHUNK * N_CHUNKS
    labels = torch.zeros(BATCH, frames)
    for b in range(BATCH):
        for _ in range(3):
            start = int(torch.randint(0, frames - 12, (1,), generator=gen))
            labels[b, start:start + int(torch.randint(4, 12, (1,), generator=gen))] = 1.0
    mels = 0.3 * torch.randn(BATCH, frames, N_MELS, generator=gen)
    mels[:, :, 3:11] += 1.5 * labels.unsqueeze(-1)
    return mels, labels


def train_stream(model, optimizer, mels, labels):
    state = torch.zeros(BATCH, STATE)
    for c in range(N_CHUNKS):
        frames = mels[:, c * CHUNK:(c + 1) * CHUNK]
        target = labels[:, c * CHUNK:(c + 1) * CHUNK]
        logits, state = model(frames, state)
        loss = F.binary_cross_entropy_with_logits(logits, target)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        acc = ((logits > 0).float() == target).float().mean().item()
        print(f"chunk {c} loss {loss.item():.4f} frame acc {acc:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    model = StreamingVAD()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    mels, labels = synthetic_recordings(gen)
    train_stream(model, optimizer, mels, labels)
