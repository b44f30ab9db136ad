"""REINFORCE fine-tuning of a tiny token generator: sequences are rewarded for using the
target token, plus an entropy bonus so the policy keeps exploring. The agent subtracts a
moving-average baseline of the reward from each return."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
VOCAB, SEQ_LEN, BATCH, TARGET_TOKEN, ENT_BETA = 6, 5, 16, 3, 0.05


class TinyGenerator(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Embedding(VOCAB, 16)
        self.cell = nn.GRUCell(16, hidden)
        self.head = nn.Linear(hidden, VOCAB)

    def sample(self, batch):
        h = torch.zeros(batch, self.hidden)
        token = torch.zeros(batch, dtype=torch.long)
        tokens, log_prob, entropy = [], 0.0, 0.0
        for _ in range(SEQ_LEN):
            h = self.cell(self.embed(token), h)
            dist = Categorical(logits=self.head(h))
            token = dist.sample()
            tokens.append(token)
            log_prob = log_prob + dist.log_prob(token)
            entropy = entropy + dist.entropy()
        return torch.stack(tokens, 1), log_prob, entropy / SEQ_LEN


class ReinforceAgent:
    def __init__(self, policy, lr=1e-2, momentum=0.9):
        self.policy = policy
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
        self.momentum = momentum
        self.baseline = 0.0

    def update(self):
        tokens, log_prob, entropy = self.policy.sample(BATCH)
        task_reward = (tokens == TARGET_TOKEN).float().mean(1)
        reward = task_reward + ENT_BETA * entropy
        advantage = (reward - self.baseline).detach()
        loss = -(advantage * log_prob).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.baseline = self.momentum * self.baseline + (1 - self.momentum) * reward.mean().item()
        return task_reward.mean().item()


agent = ReinforceAgent(TinyGenerator())
for it in range(8):
    hit_rate = agent.update()
    print(f"iter {it} target-token rate {hit_rate:.3f} baseline {agent.baseline:.4f}")
