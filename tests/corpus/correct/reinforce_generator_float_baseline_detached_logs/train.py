"""REINFORCE fine-tuning of a tiny token generator with an entropy-regularised reward and a
moving-average baseline. The baseline is a Python float updated from reward.mean().item(),
the entropy bonus enters the reward detached (and the loss directly), and a RunLog
dataclass keeps the per-iteration statistics as floats and detached tensors."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(7)
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


@dataclass
class RunLog:
    rewards: list = field(default_factory=list)
    entropies: list = field(default_factory=list)
    baselines: list = field(default_factory=list)


def train(policy, iterations=8, momentum=0.9):
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    baseline, log = 0.0, RunLog()
    for it in range(iterations):
        tokens, log_prob, entropy = policy.sample(BATCH)
        reward = (tokens == TARGET_TOKEN).float().mean(1) + ENT_BETA * entropy.detach()
        advantage = reward - baseline
        loss = -(advantage * log_prob).mean() - ENT_BETA * entropy.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        baseline = momentum * baseline + (1 - momentum) * reward.mean().item()
        log.rewards.append(reward.mean().item())
        log.entropies.append(entropy.mean().detach())
        log.baselines.append(baseline)
        print(f"iter {it} reward {log.rewards[-1]:.4f} baseline {baseline:.4f}")
    return log


policy = TinyGenerator()
log = train(policy)
mean_entropy = torch.stack(log.entropies).mean().item()
checksum = sum(p.sum().item() for p in policy.parameters())
print(f"mean entropy {mean_entropy:.4f} checksum {checksum:.6f}")
