"""DCGAN-style training: the discriminator step sees fake.detach(), the generator step
reuses the same fake batch (with its graph) through netD."""
import torch
import torch.nn as nn

torch.manual_seed(1)
NZ, NGF, NDF, BATCH = 8, 8, 8, 6


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(NZ, NGF * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(NGF * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(NGF * 2, NGF, 4, 2, 1, bias=False),
            nn.BatchNorm2d(NGF),
            nn.ReLU(True),
            nn.ConvTranspose2d(NGF, 1, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(1, NDF, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(NDF, NDF * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(NDF * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(NDF * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x).view(-1)


netG, netD = Generator(), Discriminator()
criterion = nn.BCELoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
real_data = torch.rand(5, BATCH, 1, 16, 16) * 2 - 1
real_label, fake_label = 1.0, 0.0

for i, real in enumerate(real_data):
    # (1) update D: maximise log(D(x)) + log(1 - D(G(z)))
    netD.zero_grad()
    label = torch.full((BATCH,), real_label)
    errD_real = criterion(netD(real), label)
    errD_real.backward()
    noise = torch.randn(BATCH, NZ, 1, 1)
    fake = netG(noise)
    label.fill_(fake_label)
    errD_fake = criterion(netD(fake.detach()), label)
    errD_fake.backward()
    errD = errD_real + errD_fake
    optD.step()

    # (2) update G: maximise log(D(G(z)))
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
    optG.step()
    print(f"[{i}] loss_D {errD.item():.6f} loss_G {errG.item():.6f} D(G(z)) {output.mean().item():.6f}")

print(f"checksum G {sum(p.sum().item() for p in netG.parameters()):.6f}")
print(f"checksum D {sum(p.sum().item() for p in netD.parameters()):.6f}")
