"""Small VAE on synthetic 20-d data; the reparameterisation trick reuses std's storage."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
D, HID, LATENT = 20, 32, 4


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(D, HID), nn.ReLU())
        self.fc_mu = nn.Linear(HID, LATENT)
        self.fc_logvar = nn.Linear(HID, LATENT)
        self.dec = nn.Sequential(nn.Linear(LATENT, HID), nn.ReLU(), nn.Linear(HID, D))

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.fc_mu(h), self.fc_logvar(h)
        z = self.reparameterize(mu, logvar)
        return self.dec(z), mu, logvar


data = torch.randn(64, LATENT) @ torch.randn(LATENT, D)
model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(6):
    batch = data[torch.randint(0, len(data), (16,))]
    recon, mu, logvar = model(batch)
    rec = F.mse_loss(recon, batch, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (rec + kld) / batch.size(0)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
