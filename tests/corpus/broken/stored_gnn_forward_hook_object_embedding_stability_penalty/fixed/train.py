"""Node classification on a stochastic-block-model graph with a 2-layer GCN. To keep node
embeddings stable from one step to the next (they feed a downstream retrieval index), a
forward-hook object on the encoder remembers the last embeddings and computes a stability
penalty against them on every forward."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_PER_BLOCK, N_BLOCKS, N_FEAT, HID, STEPS, STABILITY = 10, 3, 6, 16, 5, 0.1


def sbm_graph():
    n = N_PER_BLOCK * N_BLOCKS
    labels = torch.arange(N_BLOCKS).repeat_interleave(N_PER_BLOCK)
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(0.5), torch.tensor(0.05))
    adj = torch.bernoulli(probs).triu(1)
    adj = adj + adj.t() + torch.eye(n)
    deg = adj.sum(1).pow(-0.5)
    x = torch.randn(n, N_FEAT) + F.one_hot(labels, N_FEAT).float()
    return deg[:, None] * adj * deg[None, :], x, labels


class GCNEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(N_FEAT, HID), nn.Linear(HID, HID)

    def forward(self, a_hat, x):
        return a_hat @ self.lin2(F.relu(a_hat @ self.lin1(x)))


class StabilityHook:
    """Forward hook: penalty between this forward's embeddings and the previous ones."""

    def __init__(self):
        self.last = None
        self.penalty = torch.zeros(())

    def __call__(self, module, inputs, output):
        if self.last is not None:
            self.penalty = F.mse_loss(output, self.last)
        self.last = output.detach()


torch.manual_seed(0)
a_hat, x, labels = sbm_graph()
encoder, classifier = GCNEncoder(), nn.Linear(HID, N_BLOCKS)
stability = StabilityHook()
encoder.register_forward_hook(stability)
optimizer = torch.optim.Adam([*encoder.parameters(), *classifier.parameters()], lr=1e-2)
train_mask = torch.rand(labels.numel()) < 0.5

for step in range(STEPS):
    z = encoder(a_hat, F.dropout(x, 0.1))
    task_loss = F.cross_entropy(classifier(z)[train_mask], labels[train_mask])
    loss = task_loss + STABILITY * stability.penalty
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (classifier(z).argmax(1) == labels)[~train_mask].float().mean()
    print(f"step {step} task {task_loss.item():.4f} stability {float(stability.penalty):.5f} "
          f"val_acc {acc.item():.3f}")
