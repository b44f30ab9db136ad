"""GAN that computes the discriminator's output on the fakes once and reuses it for the
generator loss after the discriminator step."""
import torch, torch.nn as nn
torch.manual_seed(0)
G = nn.Linear(2, 4); D = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())
og = torch.optim.Adam(G.parameters(), 1e-3); od = torch.optim.Adam(D.parameters(), 1e-3)
bce = nn.BCELoss()
for step in range(3):
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(torch.randn(8, 4)), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    od.zero_grad(); d_loss.backward(); od.step()
    d_fake = D(fake)
    g_loss = bce(d_fake, torch.ones(8, 1))
    og.zero_grad(); g_loss.backward(); og.step()
