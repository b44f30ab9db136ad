"""SimSiam pretraining on accelerometer windows (6 channels x 32 samples).

Both augmented views go through the encoder as one batch so the BatchNorm layers see the
full 2B batch, then the symmetric loss is split into its two halves, each backwarded
separately (the "D(p1, z2)/2 + D(p2, z1)/2" form from the paper, one term at a time).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

CHANNELS, WINDOW, DIM, BATCH = 6, 32, 32, 16


def augment(x):
    scale = 1.0 + 0.1 * torch.randn(x.size(0), x.size(1), 1)
    jitter = 0.05 * torch.randn_like(x)
    return x * scale + jitter


def negative_cosine(p, z):
    return -F.cosine_similarity(p, z.detach(), dim=-1).mean()


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(CHANNELS, 16, 5, padding=2), nn.BatchNorm1d(16), nn.ReLU(),
            nn.Conv1d(16, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(32, DIM), nn.BatchNorm1d(DIM))

    def forward(self, x):
        return self.projector(self.conv(x).mean(dim=2))


class SimSiamTrainer:
    def __init__(self, lr=0.05):
        self.encoder = Encoder()
        self.predictor = nn.Sequential(nn.Linear(DIM, 16), nn.ReLU(), nn.Linear(16, DIM))
        params = list(self.encoder.parameters()) + list(self.predictor.parameters())
        self.optimizer = torch.optim.SGD(params, lr=lr, momentum=0.9, weight_decay=1e-4)
        self.history = []

    def training_step(self, windows):
        x1, x2 = augment(windows), augment(windows)
        z = self.encoder(torch.cat([x1, x2]))
        z1, z2 = z.chunk(2)
        p1, p2 = self.predictor(z1), self.predictor(z2)

        self.optimizer.zero_grad()
        loss_a = 0.5 * negative_cosine(p1, z2)
        loss_a.backward()
        loss_b = 0.5 * negative_cosine(p2, z1)
        loss_b.backward()
        self.optimizer.step()

        total = loss_a.item() + loss_b.item()
        self.history.append(total)
        return total

    def fit(self, data, epochs=2):
        for epoch in range(epochs):
            for i in range(0, data.size(0), BATCH):
                loss = self.training_step(data[i:i + BATCH])
            print(f"epoch {epoch} loss {loss:.4f} z-std {self.embedding_std(data):.4f}")

    @torch.no_grad()
    def embedding_std(self, data):
        self.encoder.eval()
        z = F.normalize(self.encoder(data), dim=1)
        self.encoder.train()
        return z.std(dim=0).mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    t = torch.linspace(0, 6.28, WINDOW)
    freqs = torch.rand(64, CHANNELS, 1) * 3 + 0.5
    data = torch.sin(freqs * t) + 0.1 * torch.randn(64, CHANNELS, WINDOW)
    SimSiamTrainer().fit(data)
