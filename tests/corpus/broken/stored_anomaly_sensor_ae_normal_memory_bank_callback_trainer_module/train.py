"""Pump vibration anomaly detector: autoencoder on 3-axis windows with a normal-memory compactness term."""
import torch
import torch.nn as nn

from trainer import EpochLogger, NormalMemoryBank, Trainer

torch.manual_seed(5)
WIN, AXES, LATENT = 16, 3, 4


class WindowAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Flatten(), nn.Linear(WIN * AXES, 24), nn.ReLU(), nn.Linear(24, LATENT))
        self.dec = nn.Sequential(nn.Linear(LATENT, 24), nn.ReLU(), nn.Linear(24, WIN * AXES))

    def forward(self, x):
        z = self.enc(x)
        return self.dec(z).view_as(x), z


def normal_windows(n, freq=0.35):
    t = torch.arange(WIN).float()
    phase = 6.28 * torch.rand(n, AXES, 1)
    return torch.sin(freq * t + phase) + 0.05 * torch.randn(n, AXES, WIN)


model = WindowAE()
trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=3e-3),
                  memory=NormalMemoryBank(max_batches=3), callbacks=[EpochLogger()])
trainer.fit([normal_windows(16) for _ in range(3)], epochs=2)

model.eval()
with torch.no_grad():
    probe = torch.cat([normal_windows(4), normal_windows(4, freq=1.3)])
    recon, _ = model(probe)
    scores = ((recon - probe) ** 2).mean(dim=(1, 2))
print("anomaly scores", [round(s, 4) for s in scores.tolist()])
