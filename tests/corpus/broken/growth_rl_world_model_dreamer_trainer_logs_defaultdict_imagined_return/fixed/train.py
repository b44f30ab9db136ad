"""Model-based RL on a point mass: fit the world model on replayed sequences, then train the
actor on imagined rollouts through the (frozen) world model. The Trainer keeps per-step
metrics in a dict of lists for the end-of-run summary."""
from collections import defaultdict
from contextlib import contextmanager

import torch
import torch.nn as nn
import torch.nn.functional as F

from world_model import ACT, DETER, OBS, WorldModel

HORIZON, SEQ = 5, 8


def replay_batch(n, gen):
    pos, vel = torch.zeros(n, 1), torch.zeros(n, 1)
    obs, acts = [], []
    for _ in range(SEQ):
        a = torch.tanh(torch.randn(n, ACT, generator=gen))
        obs.append(torch.cat([pos, vel, a, -pos.abs()], -1))
        acts.append(a)
        vel = 0.8 * vel + 0.2 * a
        pos = pos + vel
    return torch.stack(obs, 1), torch.stack(acts, 1)


@contextmanager
def frozen(module):
    flags = [p.requires_grad for p in module.parameters()]
    module.requires_grad_(False)
    try:
        yield
    finally:
        for p, f in zip(module.parameters(), flags):
            p.requires_grad_(f)


class DreamerTrainer:
    def __init__(self):
        self.wm = WorldModel()
        self.actor = nn.Sequential(nn.Linear(DETER, 16), nn.Tanh(), nn.Linear(16, ACT),
                                   nn.Tanh())
        self.wm_opt = torch.optim.Adam(self.wm.parameters(), lr=3e-3)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.logs = defaultdict(list)

    def train_step(self, obs, actions):
        recon, prior_err, states = self.wm.observe(obs, actions)
        rew_pred = self.wm.reward(states).squeeze(-1)
        reward_err = F.mse_loss(rew_pred, obs[:, 1:, 3])
        wm_loss = recon + prior_err + reward_err
        self.wm_opt.zero_grad()
        wm_loss.backward()
        self.wm_opt.step()

        start = states[:, -1].detach()
        with frozen(self.wm):
            imag_rewards = self.wm.imagine(start, self.actor, HORIZON)
        imag_return = imag_rewards.sum(1).mean()
        self.actor_opt.zero_grad()
        (-imag_return).backward()
        self.actor_opt.step()

        metrics = {"wm_loss": wm_loss.detach(), "recon": recon.detach(),
                   "imag_return": imag_return.detach()}
        for k, v in metrics.items():
            self.logs[k].append(v)
        return metrics


def main(steps=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    trainer = DreamerTrainer()
    for step in range(steps):
        m = trainer.train_step(*replay_batch(12, gen))
        print(f"step {step} wm_loss {m['wm_loss'].item():.4f} "
              f"imagined return {m['imag_return'].item():.4f}")
    summary = {k: round(float(torch.stack(v).mean()), 4) for k, v in trainer.logs.items()}
    print("summary", summary)


if __name__ == "__main__":
    main()
