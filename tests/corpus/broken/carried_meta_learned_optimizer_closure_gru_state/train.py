"""Learning to learn by gradient descent: a coordinate-wise GRU update rule is
meta-trained on random least-squares problems. The learned optimizer is a closure that
keeps the GRU state of every coordinate between calls, as a stateful optimizer would."""
import torch
import torch.nn as nn

DIM, N_OBS, UNROLL, META_STEPS = 6, 24, 4, 5


class UpdateRule(nn.Module):
    """Maps each coordinate's (gradient, state) to (update, new state)."""

    def __init__(self, hidden=12):
        super().__init__()
        self.hidden_size = hidden
        self.cell = nn.GRUCell(2, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, grad, state):
        # log-magnitude / sign preprocessing keeps inputs of every scale in range
        feats = torch.stack([torch.log(grad.abs() + 1e-8) / 10.0, torch.sign(grad)], dim=1)
        state = self.cell(feats, state)
        return 0.1 * self.out(state).squeeze(1), state


def make_learned_optimizer(rule):
    hidden = None

    def update(params, grad):
        nonlocal hidden
        if hidden is None:
            hidden = torch.zeros(params.numel(), rule.hidden_size)
        step, hidden = rule(grad, hidden)
        return params + step

    return update


def sample_task():
    A = torch.randn(N_OBS, DIM)
    w_true = torch.randn(DIM)
    return A, A @ w_true + 0.05 * torch.randn(N_OBS)


def lsq_loss(w, A, b):
    return ((A @ w - b) ** 2).mean()


def meta_train():
    torch.manual_seed(0)
    rule = UpdateRule()
    meta_opt = torch.optim.Adam(rule.parameters(), lr=5e-3)
    learned_update = make_learned_optimizer(rule)
    for meta_step in range(META_STEPS):
        A, b = sample_task()
        w = torch.zeros(DIM, requires_grad=True)
        meta_loss = 0.0
        for t in range(UNROLL):
            loss = lsq_loss(w, A, b)
            meta_loss = meta_loss + loss
            # the optimizee gradient is an input to the rule (no second-order terms)
            (grad,) = torch.autograd.grad(loss, w, retain_graph=True)
            w = learned_update(w, grad.detach())
        final = lsq_loss(w, A, b)
        meta_loss = meta_loss + final
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()
        print(f"meta step {meta_step}: unrolled loss {meta_loss.item():.4f} final {final.item():.4f}")
    return rule


if __name__ == "__main__":
    meta_train()
