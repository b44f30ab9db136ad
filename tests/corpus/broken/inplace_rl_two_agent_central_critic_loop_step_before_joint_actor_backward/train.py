"""Two drones learn to meet at a landmark (cooperative, continuous actions). Each drone has
its own deterministic policy; one centralised critic scores the joint observation and joint
action (MADDPG-style). The critic gets a few regression steps per update; the joint policy
is scored once at the top of update() and that score is the actors' objective."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_AGENTS, OBS, ACT = 2, 4, 2
GAMMA, BATCH, CRITIC_ITERS = 0.95, 64, 2
LANDMARK = torch.tensor([0.5, -0.5])


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, ACT), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class CentralCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_AGENTS * (OBS + ACT), 64), nn.ReLU())
        self.fc = nn.Linear(64, 1)

    def forward(self, joint_obs, joint_act):
        return self.fc(self.body(torch.cat([joint_obs, joint_act], -1)))


def observe(pos):
    """Each drone sees its own position and the offset to its partner."""
    other = pos.flip(1)
    return torch.cat([pos, other - pos], -1)


def env_step(pos, act):
    nxt = pos + 0.1 * act
    spread = (nxt[:, 0] - nxt[:, 1]).norm(dim=-1)
    to_goal = (nxt.mean(1) - LANDMARK).norm(dim=-1)
    return nxt, -(spread + to_goal).unsqueeze(-1)


class Team:
    def __init__(self):
        self.actors = nn.ModuleList([Policy() for _ in range(N_AGENTS)])
        self.critic = CentralCritic()
        self.actor_opt = torch.optim.Adam(self.actors.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def act(self, obs):
        return torch.stack([pi(obs[:, i]) for i, pi in enumerate(self.actors)], 1)

    def update(self, obs, act, rew, next_obs):
        joint_obs, joint_next = obs.flatten(1), next_obs.flatten(1)
        # score the current joint policy once: the actors ascend this
        policy_value = self.critic(joint_obs, self.act(obs).flatten(1))
        actor_loss = -policy_value.mean()

        with torch.no_grad():
            target = rew + GAMMA * self.critic(joint_next, self.act(next_obs).flatten(1))
        for _ in range(CRITIC_ITERS):
            critic_loss = F.mse_loss(self.critic(joint_obs, act.flatten(1)), target)
            self.critic_opt.zero_grad()
            critic_loss.backward()
            self.critic_opt.step()

        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()
        return critic_loss.item(), actor_loss.item()


def main(updates=5):
    team = Team()
    for it in range(updates):
        pos = torch.rand(BATCH, N_AGENTS, 2) * 2 - 1
        obs = observe(pos)
        with torch.no_grad():
            act = (team.act(obs) + 0.3 * torch.randn(BATCH, N_AGENTS, ACT)).clamp(-1, 1)
        next_pos, rew = env_step(pos, act)
        c_loss, a_loss = team.update(obs, act, rew, observe(next_pos))
        print(f"update {it} critic {c_loss:.4f} actor {a_loss:.4f}")


if __name__ == "__main__":
    main()
