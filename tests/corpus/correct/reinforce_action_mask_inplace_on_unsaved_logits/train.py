"""REINFORCE on a contextual bandit with invalid-action masking. Several in-place ops touch
tensors inside the graph, but only tensors no backward node saved: the skip connection is
added in place onto a Linear output, the ReLU runs in place on that sum, the invalid logits
are filled in place on the head's output, and the returns are normalised in place."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(3)
OBS, ACTIONS, HID = 6, 5, 32


class MaskedPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(OBS, HID)
        self.skip = nn.Linear(OBS, HID, bias=False)
        self.act = nn.ReLU(inplace=True)
        self.head = nn.Linear(HID, ACTIONS)

    def forward(self, obs, valid):
        h = self.fc(obs)
        h += self.skip(obs)
        h = self.act(h)
        logits = self.head(h)
        logits.masked_fill_(~valid, -1e9)
        return logits


def episode_batch(n=32):
    obs = torch.randn(n, OBS)
    valid = torch.rand(n, ACTIONS) > 0.3
    valid[:, 0] = True
    best = (obs[:, :ACTIONS] + 10 * valid.float()).argmax(1)
    return obs, valid, best


policy = MaskedPolicy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
for step in range(6):
    obs, valid, best = episode_batch()
    dist = Categorical(logits=policy(obs, valid))
    actions = dist.sample()
    returns = (actions == best).float()
    mean_reward = returns.mean().item()
    returns -= returns.mean()
    returns /= returns.std() + 1e-6
    loss = -(dist.log_prob(actions) * returns).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.6f} reward {mean_reward:.4f}")
print(f"checksum {sum(p.sum().item() for p in policy.parameters()):.6f}")
