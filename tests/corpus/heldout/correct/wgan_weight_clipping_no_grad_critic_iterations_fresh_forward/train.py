"""Original WGAN (weight clipping, RMSprop) on a 1-D bimodal distribution. The critic is
updated N_CRITIC times per generator step and its weights are clipped in place under
torch.no_grad() after every critic step; the generator step runs a fresh critic forward."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_CRITIC, CLIP, BATCH, Z = 3, 0.05, 64, 4


def sample_real(n):
    mode = torch.randint(0, 2, (n, 1)).float()
    return (mode * 4 - 2) + 0.3 * torch.randn(n, 1)


class Trainer:
    def __init__(self):
        self.G = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Linear(32, 1))
        self.C = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32),
                               nn.LeakyReLU(0.2), nn.Linear(32, 1, bias=False))
        self.opt_g = torch.optim.RMSprop(self.G.parameters(), lr=5e-4)
        self.opt_c = torch.optim.RMSprop(self.C.parameters(), lr=5e-4)

    def clip_critic_(self):
        with torch.no_grad():
            for p in self.C.parameters():
                p.clamp_(-CLIP, CLIP)

    def critic_step(self):
        real = sample_real(BATCH)
        fake = self.G(torch.randn(BATCH, Z)).detach()
        loss = self.C(fake).mean() - self.C(real).mean()
        self.opt_c.zero_grad()
        loss.backward()
        self.opt_c.step()
        self.clip_critic_()
        return -loss.item()

    def generator_step(self):
        fake = self.G(torch.randn(BATCH, Z))
        loss = -self.C(fake).mean()
        self.opt_g.zero_grad()
        loss.backward()
        self.opt_g.step()
        return loss.item()

    def run(self, iterations=5):
        self.clip_critic_()
        for it in range(iterations):
            w_dist = [self.critic_step() for _ in range(N_CRITIC)][-1]
            g_loss = self.generator_step()
            print(f"iter {it} wasserstein estimate {w_dist:.5f} g_loss {g_loss:.5f}")
        checksum = sum(p.detach().sum().item() for m in (self.G, self.C) for p in m.parameters())
        print(f"checksum {checksum:.4f}")


if __name__ == "__main__":
    Trainer().run()
