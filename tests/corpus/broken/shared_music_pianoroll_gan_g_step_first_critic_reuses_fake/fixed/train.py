"""One-bar piano-roll GAN (16 steps x 12 pitch classes); the generator is updated first each iteration."""
import torch
import torch.nn as nn
import torch.nn.functional as F

STEPS, PITCHES, NZ = 16, 12, 8


class BarGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(NZ, 32 * 4)
        self.up = nn.Sequential(
            nn.ConvTranspose1d(32, 16, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose1d(16, PITCHES, 4, stride=2, padding=1))

    def forward(self, z):
        h = F.relu(self.fc(z)).view(-1, 32, 4)
        return torch.sigmoid(self.up(h))


class BarCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(PITCHES, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv1d(16, 32, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(32 * 4, 1))

    def forward(self, roll):
        return self.net(roll)


def arpeggio_bars(n):
    """Major-triad arpeggios on eighth notes, random root."""
    bars = torch.zeros(n, PITCHES, STEPS)
    roots = torch.randint(0, PITCHES, (n,))
    for b in range(n):
        chord = [(roots[b] + iv) % PITCHES for iv in (0, 4, 7, 4)]
        for step in range(0, STEPS, 2):
            bars[b, chord[(step // 2) % 4], step] = 1.0
    return bars


def main():
    torch.manual_seed(6)
    G, D = BarGenerator(), BarCritic()
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
    batch = 8
    ones, zeros = torch.ones(batch, 1), torch.zeros(batch, 1)

    for it in range(6):
        real = arpeggio_bars(batch)
        fake = G(torch.randn(batch, NZ))

        g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()

        d_loss = (F.binary_cross_entropy_with_logits(D(real), ones)
                  + F.binary_cross_entropy_with_logits(D(fake.detach()), zeros))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        print(f"it {it} g_loss {g_loss.item():.4f} d_loss {d_loss.item():.4f}")


if __name__ == "__main__":
    main()
