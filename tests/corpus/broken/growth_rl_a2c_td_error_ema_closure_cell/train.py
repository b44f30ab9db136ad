"""Advantage actor-critic on a vectorised corridor task (walk right to reach the goal cell).
A small closure-based monitor keeps an exponential moving average of the critic's
absolute TD error; it feeds the progress line and the 'critic has settled' message."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CELLS, N_ENVS, HORIZON, GAMMA, UPDATES = 6, 8, 8, 0.95, 10


def env_step(pos, action):
    pos = (pos + torch.where(action == 1, 1, -1)).clamp(0, N_CELLS - 1)
    done = pos == N_CELLS - 1
    return pos, done.float(), done


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_CELLS, 32), nn.Tanh())
        self.pi = nn.Linear(32, 2)
        self.v = nn.Linear(32, 1)

    def forward(self, pos):
        h = self.body(F.one_hot(pos, N_CELLS).float())
        return self.pi(h), self.v(h).squeeze(-1)


def make_td_monitor(decay=0.9):
    ema = None

    def update(td_error):
        nonlocal ema
        batch_mag = td_error.abs().mean()
        ema = batch_mag if ema is None else decay * ema + (1 - decay) * batch_mag
        return ema

    return update


def rollout(net, pos):
    log_probs, values, rewards, masks, entropies = [], [], [], [], []
    for _ in range(HORIZON):
        logits, value = net(pos)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        pos, reward, done = env_step(pos, action)
        log_probs.append(dist.log_prob(action))
        values.append(value)
        entropies.append(dist.entropy())
        rewards.append(reward)
        masks.append(1.0 - done.float())
        pos = torch.where(done, torch.zeros_like(pos), pos)
    return pos, log_probs, values, rewards, masks, entropies


def train():
    net = ActorCritic()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=7e-3)
    track_td = make_td_monitor()
    pos = torch.zeros(N_ENVS, dtype=torch.long)
    for update in range(UPDATES):
        pos, log_probs, values, rewards, masks, entropies = rollout(net, pos)
        with torch.no_grad():
            ret = net(pos)[1]
        returns = []
        for r, m in zip(reversed(rewards), reversed(masks)):
            ret = r + GAMMA * m * ret
            returns.insert(0, ret)
        td = torch.stack(returns) - torch.stack(values)
        policy_loss = -(torch.stack(log_probs) * td.detach()).mean()
        loss = policy_loss + 0.5 * td.pow(2).mean() - 0.01 * torch.stack(entropies).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        td_ema = track_td(td)
        goals = torch.stack(rewards).sum().item()
        print(f"update {update} loss {loss.item():.4f} goals {goals:.0f} td-ema {td_ema:.4f}")
        if td_ema < 0.05:
            print("critic has settled")
    return net


if __name__ == "__main__":
    train()
