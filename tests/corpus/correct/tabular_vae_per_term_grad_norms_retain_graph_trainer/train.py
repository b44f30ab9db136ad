"""VAE on tabular rows with a Trainer that logs how hard each loss term pulls on the
encoder: the reconstruction term is backwarded first with retain_graph=True (the KL term
goes through the same encoder forward), the encoder's gradient norm is read, then the KL
term is backwarded, freeing the graph, and one optimizer step uses the summed gradients."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
N_FEATURES, LATENT = 10, 3


class TabularVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.Tanh())
        self.mu = nn.Linear(32, LATENT)
        self.log_var = nn.Linear(32, LATENT)
        self.decoder = nn.Sequential(nn.Linear(LATENT, 32), nn.Tanh(), nn.Linear(32, N_FEATURES))

    def forward(self, x):
        h = self.encoder(x)
        mu, log_var = self.mu(h), self.log_var(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * log_var)
        return self.decoder(z), mu, log_var


def grad_norm(module):
    return torch.sqrt(sum(p.grad.pow(2).sum() for p in module.parameters())).item()


class VAETrainer:
    def __init__(self, model, beta=0.5):
        self.model = model
        self.beta = beta
        self.optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
        self.log = []

    def train_step(self, x):
        self.optimizer.zero_grad()
        recon, mu, log_var = self.model(x)
        recon_loss = F.mse_loss(recon, x)
        kl = -0.5 * (1 + log_var - mu.pow(2) - log_var.exp()).sum(-1).mean()
        recon_loss.backward(retain_graph=True)
        pull_recon = grad_norm(self.model.encoder)
        (self.beta * kl).backward()
        pull_total = grad_norm(self.model.encoder)
        self.optimizer.step()
        self.log.append((recon_loss.item(), kl.item(), pull_recon, pull_total))

    def fit(self, batches):
        for x in batches:
            self.train_step(x)
            r, k, g1, g2 = self.log[-1]
            print(f"step {len(self.log)} recon {r:.6f} kl {k:.6f} |g_recon| {g1:.6f} |g_total| {g2:.6f}")


rows = torch.randn(96, N_FEATURES) @ torch.randn(N_FEATURES, N_FEATURES) * 0.4
trainer = VAETrainer(TabularVAE())
trainer.fit([rows[i:i + 16] for i in range(0, 96, 16)])
print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.6f}")
