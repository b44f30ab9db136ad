"""Two-speaker separation on synthetic magnitude spectrograms."""
import torch

from model import Separator

torch.manual_seed(11)


def synth_batch(batch=8, frames=20, n_freq=16):
    s1 = torch.rand(batch, frames, n_freq) * torch.linspace(1.0, 0.1, n_freq)
    s2 = torch.rand(batch, frames, n_freq) * torch.linspace(0.1, 1.0, n_freq)
    return s1 + s2, torch.stack([s1, s2], dim=2)


class SeparationTrainer:
    def __init__(self, lr=5e-3):
        self.model = Separator()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.step = 0

    def train_step(self, mix, sources):
        estimates = self.model(mix)
        loss = (estimates - sources).abs().mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return loss.item()

    def fit(self, n_steps):
        for _ in range(n_steps):
            mix, sources = synth_batch()
            value = self.train_step(mix, sources)
            print(f"step {self.step} L1 {value:.4f}")


if __name__ == "__main__":
    SeparationTrainer().fit(5)
