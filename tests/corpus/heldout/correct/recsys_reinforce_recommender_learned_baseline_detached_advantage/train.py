"""Contextual-bandit REINFORCE recommender: a policy picks one of 12 items for each user
context, a simulated user clicks or not, and a learned value baseline reduces variance.
Both networks share one optimizer; the advantage uses the baseline detached."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CONTEXT, ITEMS = 10, 12


class Recommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Sequential(nn.Linear(CONTEXT, 32), nn.ReLU())
        self.policy = nn.Linear(32, ITEMS)
        self.baseline = nn.Sequential(nn.Linear(CONTEXT, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, ctx):
        return self.policy(self.user(ctx)), self.baseline(ctx).squeeze(-1)


def simulate_clicks(ctx, items, item_vecs, generator):
    affinity = (ctx[:, :4] * item_vecs[items]).sum(-1)
    return (torch.rand(len(items), generator=generator) < torch.sigmoid(2 * affinity)).float()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    item_vecs = torch.randn(ITEMS, 4, generator=gen)
    model = Recommender()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    ctr_log = []
    for step in range(8):
        ctx = torch.randn(64, CONTEXT, generator=gen)
        logits, value = model(ctx)
        dist = torch.distributions.Categorical(logits=logits)
        items = dist.sample()
        reward = simulate_clicks(ctx, items, item_vecs, gen)
        advantage = reward - value.detach()
        policy_loss = -(dist.log_prob(items) * advantage).mean() - 0.01 * dist.entropy().mean()
        value_loss = F.mse_loss(value, reward)
        loss = policy_loss + 0.5 * value_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ctr_log.append(reward.mean().item())
        print(f"step {step} ctr {ctr_log[-1]:.3f} policy {policy_loss.item():.4f} "
              f"value {value_loss.item():.4f}")
    print(f"mean ctr {sum(ctr_log) / len(ctr_log):.3f} "
          f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
