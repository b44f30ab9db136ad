"""Keyword spotting on mel energies with a trainable PCEN (per-channel energy normalisation)
front end; alpha, delta and r are learned per mel channel and kept in a sane range."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, N_WORDS = 24, 20, 5


class TrainablePCEN(nn.Module):
    def __init__(self, n_mels, s=0.04, eps=1e-6):
        super().__init__()
        # rows: alpha, delta, r
        init = torch.tensor([0.98, 0.5, 0.5]).unsqueeze(1).repeat(1, n_mels)
        self.pcen_params = nn.Parameter(init)
        self.s, self.eps = s, eps

    def forward(self, energy):
        alpha, delta, r = self.pcen_params.data.clamp(0.01, 1.0)
        smoothed = [energy[:, 0]]
        for t in range(1, energy.size(1)):
            smoothed.append((1 - self.s) * smoothed[-1] + self.s * energy[:, t])
        m = torch.stack(smoothed, dim=1)
        return (energy / (self.eps + m) ** alpha + delta) ** r - delta ** r


class PCENKeywordNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = TrainablePCEN(N_MELS)
        self.body = nn.Sequential(nn.Conv1d(N_MELS, 32, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(32, 32, 5, padding=2), nn.ReLU())
        self.classifier = nn.Linear(32, N_WORDS)

    def forward(self, energy):
        x = self.frontend(energy).transpose(1, 2)
        return self.classifier(self.body(x).mean(dim=-1))


def energy_batch(batch=8):
    words = torch.randint(0, N_WORDS, (batch,))
    gain = torch.empty(batch, 1, 1).uniform_(0.1, 10.0)
    energy = torch.rand(batch, FRAMES, N_MELS)
    energy[torch.arange(batch), 5:15, words * 4] += 3.0
    return energy * gain, words


def train(steps=6):
    torch.manual_seed(0)
    model = PCENKeywordNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(steps):
        energy, words = energy_batch()
        loss = F.cross_entropy(model(energy), words)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        alpha = model.frontend.pcen_params[0].mean().item()
        print(f"step {step} loss {loss.item():.4f} mean alpha {alpha:.4f}")


if __name__ == "__main__":
    train()
