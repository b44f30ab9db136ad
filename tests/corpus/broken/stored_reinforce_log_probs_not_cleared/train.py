"""REINFORCE after PyTorch's example, with `del policy.saved_log_probs[:]` forgotten after
the update: the next episode's loss also goes through the previous episodes' log-probs."""
import torch, torch.nn as nn, torch.nn.functional as F
from torch.distributions import Categorical
torch.manual_seed(0)
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine = nn.Linear(4, 16)
        self.head = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []
    def forward(self, x):
        return F.softmax(self.head(F.relu(self.affine(x))), dim=-1)
policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
def select_action(state):
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()
def finish_episode():
    returns, R = [], 0
    for r in policy.rewards[::-1]:
        R = r + 0.99 * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    policy_loss = [-lp * R for lp, R in zip(policy.saved_log_probs, returns)]
    optimizer.zero_grad()
    loss = torch.stack(policy_loss).sum()
    loss.backward()
    optimizer.step()
    del policy.rewards[:]
for episode in range(3):
    for t in range(5):
        a = select_action(torch.randn(4))
        policy.rewards.append(float(a))
    finish_episode()
