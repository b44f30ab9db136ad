"""TD3 on a toy 2-link reacher: random transitions, twin Q critics, delayed actor updates."""
import copy
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TD3Config:
    obs_dim: int = 6
    act_dim: int = 2
    hidden: int = 32
    gamma: float = 0.97
    tau: float = 0.05
    policy_delay: int = 2
    target_noise: float = 0.2
    batch: int = 32


def mlp(inp, out, hidden, out_act=None):
    layers = [nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, out)]
    if out_act is not None:
        layers.append(out_act)
    return nn.Sequential(*layers)


class TwinQ(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.q1 = mlp(cfg.obs_dim + cfg.act_dim, 1, cfg.hidden)
        self.q2 = mlp(cfg.obs_dim + cfg.act_dim, 1, cfg.hidden)

    def forward(self, obs, act):
        sa = torch.cat([obs, act], dim=-1)
        return self.q1(sa), self.q2(sa)


def reacher_batch(cfg):
    obs = torch.randn(cfg.batch, cfg.obs_dim)
    act = torch.rand(cfg.batch, cfg.act_dim) * 2 - 1
    next_obs = obs + 0.1 * torch.cat([act, act, act], dim=-1)
    reward = -next_obs[:, 4:6].norm(dim=-1, keepdim=True) - 0.01 * act.pow(2).sum(-1, keepdim=True)
    done = torch.zeros(cfg.batch, 1)
    return obs, act, reward, next_obs, done


def main():
    torch.manual_seed(3)
    cfg = TD3Config()
    policy = mlp(cfg.obs_dim, cfg.act_dim, cfg.hidden, nn.Tanh())
    qf = TwinQ(cfg)
    target_policy = copy.deepcopy(policy)
    target_qf = copy.deepcopy(qf)
    policy_opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    qf_opt = torch.optim.Adam(qf.parameters(), lr=1e-3)

    for step in range(6):
        obs, act, reward, next_obs, done = reacher_batch(cfg)
        with torch.no_grad():
            noise = (torch.randn_like(act) * cfg.target_noise).clamp(-0.5, 0.5)
            next_act = (target_policy(next_obs) + noise).clamp(-1, 1)
            tq1, tq2 = target_qf(next_obs, next_act)
            target = reward + cfg.gamma * (1 - done) * torch.min(tq1, tq2)

        q1, q2 = qf(obs, act)
        qf_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
        q1_pi, _ = qf(obs, policy(obs))
        policy_loss = -q1_pi.mean()

        if step % cfg.policy_delay == 0:
            policy_opt.zero_grad()
            policy_loss.backward()
            policy_opt.step()

        qf_opt.zero_grad()
        qf_loss.backward()
        qf_opt.step()

        if step % cfg.policy_delay == 0:
            with torch.no_grad():
                for net, tgt in ((policy, target_policy), (qf, target_qf)):
                    for p, tp in zip(net.parameters(), tgt.parameters()):
                        tp.lerp_(p, cfg.tau)
        print(f"step {step}: qf_loss={qf_loss.item():.4f} policy_loss={policy_loss.item():.4f}")


if __name__ == "__main__":
    main()
