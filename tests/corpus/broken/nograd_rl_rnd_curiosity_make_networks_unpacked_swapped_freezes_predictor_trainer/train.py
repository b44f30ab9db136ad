"""Curiosity for a sparse-reward ring world: an exploring agent walks a ring of N_CELLS
cells, and an RND module learns which observations it has already seen. The predictor is
trained on each rollout's next observations; its error is the intrinsic reward."""
import math

import torch
import torch.nn.functional as F

from rnd import make_rnd_networks

N_CELLS, OBS_DIM, FEAT_DIM = 16, 6, 8


class RingWorld:
    def __init__(self, gen):
        self.gen = gen
        self.pos = 0

    def observe(self):
        a = 2 * math.pi * self.pos / N_CELLS
        return torch.tensor([math.sin(a), math.cos(a), math.sin(2 * a), math.cos(2 * a),
                             self.pos / N_CELLS, float(self.pos == N_CELLS // 2)])

    def step(self, action):
        self.pos = (self.pos + (1 if action == 1 else -1)) % N_CELLS
        return self.observe()


class RunningObsNorm:
    def __init__(self, dim):
        self.mean, self.var, self.count = torch.zeros(dim), torch.ones(dim), 1e-4

    def update(self, batch):
        b_mean, b_var, n = batch.mean(0), batch.var(0, unbiased=False), batch.shape[0]
        delta, total = b_mean - self.mean, self.count + n
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + b_var * n + delta ** 2 * self.count * n / total) / total
        self.count = total

    def __call__(self, obs):
        return ((obs - self.mean) / self.var.sqrt().clamp(min=1e-6)).clamp(-5, 5)


class CuriosityTrainer:
    def __init__(self, lr=1e-3, rollout_len=32):
        self.gen = torch.Generator().manual_seed(7)
        self.env = RingWorld(self.gen)
        self.target, self.predictor = make_rnd_networks(OBS_DIM, FEAT_DIM)
        self.optimizer = torch.optim.Adam(self.predictor.parameters(), lr=lr)
        self.obs_norm = RunningObsNorm(OBS_DIM)
        self.rollout_len = rollout_len

    def collect(self):
        obs = []
        for _ in range(self.rollout_len):
            action = int(torch.randint(0, 2, (1,), generator=self.gen))
            obs.append(self.env.step(action))
        return torch.stack(obs)

    def intrinsic_reward(self, next_obs):
        x = self.obs_norm(next_obs)
        with torch.no_grad():
            target_feat = self.target(x)
            return (self.predictor(x) - target_feat).pow(2).sum(-1)

    def update(self, next_obs):
        x = self.obs_norm(next_obs)
        with torch.no_grad():
            target_feat = self.target(x)
        loss = F.mse_loss(self.predictor(x), target_feat)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def run(self, iterations=4):
        for it in range(iterations):
            next_obs = self.collect()
            self.obs_norm.update(next_obs)
            bonus = self.intrinsic_reward(next_obs)
            loss = self.update(next_obs)
            print(f"iter {it} rnd loss {loss:.4f} mean bonus {bonus.mean().item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    CuriosityTrainer().run()
