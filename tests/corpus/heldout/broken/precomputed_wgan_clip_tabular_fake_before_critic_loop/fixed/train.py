"""WGAN with weight clipping for synthetic tabular records (age, income, tenure, score).
The critic is updated N_CRITIC times per generator update, as in Arjovsky et al."""
import torch
import torch.nn as nn

N_FEATURES, Z_DIM, BATCH, N_CRITIC, CLIP = 4, 10, 64, 3, 0.05


def make_table(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    age = torch.randn(n, 1, generator=g)
    income = 0.7 * age + 0.3 * torch.randn(n, 1, generator=g)
    tenure = 0.5 * age + 0.5 * torch.randn(n, 1, generator=g)
    score = torch.tanh(income - tenure) + 0.1 * torch.randn(n, 1, generator=g)
    return torch.cat([age, income, tenure, score], dim=1)


class WGANTrainer:
    def __init__(self, table):
        self.table = table
        self.generator = nn.Sequential(nn.Linear(Z_DIM, 48), nn.ReLU(), nn.Linear(48, 48),
                                       nn.ReLU(), nn.Linear(48, N_FEATURES))
        self.critic = nn.Sequential(nn.Linear(N_FEATURES, 48), nn.LeakyReLU(0.2),
                                    nn.Linear(48, 1, bias=False))
        self.opt_g = torch.optim.RMSprop(self.generator.parameters(), lr=5e-4)
        self.opt_c = torch.optim.RMSprop(self.critic.parameters(), lr=5e-4)

    def real_batch(self):
        return self.table[torch.randint(0, self.table.size(0), (BATCH,))]

    def critic_phase(self):
        noise = torch.randn(BATCH, Z_DIM)
        fake = self.generator(noise)
        for _ in range(N_CRITIC):
            real = self.real_batch()
            self.opt_c.zero_grad()
            loss_c = self.critic(fake.detach()).mean() - self.critic(real).mean()
            loss_c.backward()
            self.opt_c.step()
            for p in self.critic.parameters():
                p.data.clamp_(-CLIP, CLIP)
        return -loss_c.item()

    def generator_phase(self):
        self.opt_g.zero_grad()
        loss_g = -self.critic(self.generator(torch.randn(BATCH, Z_DIM))).mean()
        loss_g.backward()
        self.opt_g.step()
        return loss_g.item()

    def fit(self, iterations):
        for it in range(iterations):
            w_dist = self.critic_phase()
            loss_g = self.generator_phase()
            print(f"iter {it} wasserstein {w_dist:.4f} loss_g {loss_g:.4f}")


torch.manual_seed(1)
WGANTrainer(make_table(512)).fit(iterations=4)
