"""pix2pix on synthetic edge-map -> filled-shape pairs (8x8).

One generator forward per iteration: the discriminator step sees cat(input, fake).detach(),
the generator step reuses the same `fake_B` (its graph is still intact) with a fresh
discriminator pass after the discriminator's update, plus the L1 term.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
L1_WEIGHT, EPOCHS, BATCHES = 100.0, 2, 3


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2, inplace=True))
        self.mid = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
                                 nn.Dropout(0.5))
        self.up = nn.ConvTranspose2d(32, 8, 4, stride=2, padding=1)
        self.out = nn.Conv2d(8 + 1, 1, 3, padding=1)

    def forward(self, x):
        d = self.down(x)
        m = self.mid(d)
        u = F.relu(self.up(torch.cat([m, d], 1)))
        return torch.tanh(self.out(torch.cat([u, x], 1)))


netG = TinyUNet()
netD = nn.Sequential(
    nn.Conv2d(2, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(32, 1, 3, padding=1))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
gan_criterion = nn.BCEWithLogitsLoss()


def make_pairs(n):
    target = -torch.ones(n, 1, 8, 8)
    edges = -torch.ones(n, 1, 8, 8)
    for i in range(n):
        r0, c0 = torch.randint(0, 3, (2,)).tolist()
        h, w = torch.randint(3, 6, (2,)).tolist()
        target[i, 0, r0:r0 + h, c0:c0 + w] = 1.0
        edges[i, 0, r0:r0 + h, c0:c0 + w] = 1.0
        edges[i, 0, r0 + 1:r0 + h - 1, c0 + 1:c0 + w - 1] = -1.0
    return edges, target


step = 0
for epoch in range(EPOCHS):
    for _ in range(BATCHES):
        real_A, real_B = make_pairs(6)
        fake_B = netG(real_A)

        # (1) discriminator: real pair vs detached fake pair
        pred_fake = netD(torch.cat([real_A, fake_B], 1).detach())
        pred_real = netD(torch.cat([real_A, real_B], 1))
        loss_D = 0.5 * (gan_criterion(pred_fake, torch.zeros_like(pred_fake))
                        + gan_criterion(pred_real, torch.ones_like(pred_real)))
        optD.zero_grad()
        loss_D.backward()
        optD.step()

        # (2) generator: same fake_B, fresh pass through the updated discriminator
        pred_fake = netD(torch.cat([real_A, fake_B], 1))
        loss_G_gan = gan_criterion(pred_fake, torch.ones_like(pred_fake))
        loss_G_l1 = F.l1_loss(fake_B, real_B)
        loss_G = loss_G_gan + L1_WEIGHT * loss_G_l1
        optG.zero_grad()
        loss_G.backward()
        optG.step()
        print(f"epoch {epoch} step {step} D {loss_D.item():.4f} G_gan {loss_G_gan.item():.4f} "
              f"G_L1 {loss_G_l1.item():.4f}")
        step += 1

netG.eval()
with torch.no_grad():
    val_A, val_B = make_pairs(4)
    print(f"val L1 {F.l1_loss(netG(val_A), val_B).item():.4f}")
print(f"checksum {sum(p.sum().item() for m in (netG, netD) for p in m.parameters()):.4f}")
