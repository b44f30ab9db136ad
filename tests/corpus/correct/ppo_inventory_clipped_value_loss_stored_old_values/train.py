"""PPO for a toy inventory-control problem: each day the agent sees its stock level and a
demand signal and orders 0, 1 or 2 crates. A shared trunk feeds a policy head and a value
head. Rollout log-probs and values are recorded under torch.no_grad() and kept as the
'old' values for the clipped value objective; the update re-evaluates both heads."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
HORIZON, GAMMA, LAM, CLIP, VCLIP = 24, 0.9, 0.9, 0.2, 0.5


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, n_actions=3, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.policy_head = nn.Linear(hidden, n_actions)
        self.value_head = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return torch.distributions.Categorical(logits=self.policy_head(h)), self.value_head(h).squeeze(-1)


class Inventory:
    def __init__(self, gen):
        self.gen, self.stock, self.day = gen, 2.0, 0

    def observe(self):
        demand_hint = 1.0 + torch.sin(torch.tensor(2 * torch.pi * self.day / 7))
        angle = torch.tensor(2 * torch.pi * self.day / 7)
        return torch.stack([torch.tensor(self.stock / 4), demand_hint, angle.sin(), angle.cos()])

    def step(self, order):
        self.stock = min(self.stock + order, 6.0)
        demand = float(torch.poisson(torch.tensor([1.0 + torch.sin(torch.tensor(
            2 * torch.pi * self.day / 7)).item()]), generator=self.gen).item())
        sold = min(self.stock, demand)
        self.stock -= sold
        self.day += 1
        return sold - 0.1 * self.stock - 0.5 * (demand - sold)


def rollout(agent, env):
    obs, acts, logps, vals, rews = [], [], [], [], []
    for _ in range(HORIZON):
        o = env.observe()
        with torch.no_grad():
            dist, value = agent(o)
            a = dist.sample()
        obs.append(o); acts.append(a); logps.append(dist.log_prob(a)); vals.append(value)
        rews.append(env.step(float(a)))
    return torch.stack(obs), torch.stack(acts), torch.stack(logps), torch.stack(vals), torch.tensor(rews)


def advantages(rews, vals):
    adv, running = torch.zeros_like(rews), torch.tensor(0.0)
    for t in reversed(range(len(rews))):
        next_v = vals[t + 1] if t + 1 < len(rews) else torch.tensor(0.0)
        running = rews[t] + GAMMA * next_v - vals[t] + GAMMA * LAM * running
        adv[t] = running
    return adv, adv + vals


gen = torch.Generator().manual_seed(5)
agent = ActorCritic()
optimizer = torch.optim.Adam(agent.parameters(), lr=5e-3)
env = Inventory(gen)
for update in range(4):
    obs, acts, old_logp, old_v, rews = rollout(agent, env)
    adv, returns = advantages(rews, old_v)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for epoch in range(2):
        for idx in torch.randperm(HORIZON).split(12):
            dist, new_v = agent(obs[idx])
            ratio = (dist.log_prob(acts[idx]) - old_logp[idx]).exp()
            pg = -torch.min(ratio * adv[idx], ratio.clamp(1 - CLIP, 1 + CLIP) * adv[idx]).mean()
            v_clipped = old_v[idx] + (new_v - old_v[idx]).clamp(-VCLIP, VCLIP)
            v_loss = 0.5 * torch.max((new_v - returns[idx]) ** 2,
                                     (v_clipped - returns[idx]) ** 2).mean()
            loss = pg + 0.5 * v_loss - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 1.0)
            optimizer.step()
    print(f"update {update} return {rews.sum():.3f} pg {pg.item():.4f} value {v_loss.item():.4f}")
checksum = sum(p.detach().double().sum().item() for p in agent.parameters())
print(f"parameter checksum {checksum:.6f}")
