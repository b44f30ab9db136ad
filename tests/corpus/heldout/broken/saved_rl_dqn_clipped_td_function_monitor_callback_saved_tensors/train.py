"""DQN on a random finite MDP with a hand-written clipped-TD loss (Huber, written as a custom
autograd.Function so the gradient is exactly the clipped TD error, as in the Nature DQN).
A ClipMonitor callback reports how many TD errors were clipped after every update.
"""
import copy

import torch
import torch.nn as nn

N_STATES, N_ACTIONS, BATCH, UPDATES, GAMMA, CLIP = 10, 3, 32, 6, 0.9, 1.0


class ClippedTD(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q_sa, target):
        td = q_sa - target
        ctx.save_for_backward(td)
        quad = td.abs().clamp(max=CLIP)
        return 0.5 * quad ** 2 + CLIP * (td.abs() - quad)

    @staticmethod
    def backward(ctx, grad_out):
        (td,) = ctx.saved_tensors
        return grad_out * td.clamp(-CLIP, CLIP), None


class ClipMonitor:
    """Callback: fraction of transitions whose TD error hit the clip."""

    def __init__(self):
        self.history = []

    def on_update_end(self, update, per_sample):
        (td,) = per_sample.grad_fn.saved_tensors
        frac = (td.abs() > CLIP).float().mean().item()
        self.history.append(frac)
        print(f"update {update} clipped fraction {frac:.3f}")


def sample_batch(rewards, transitions, generator):
    s = torch.randint(0, N_STATES, (BATCH,), generator=generator)
    a = torch.randint(0, N_ACTIONS, (BATCH,), generator=generator)
    return s, a, rewards[s, a], transitions[s, a]


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    rewards = torch.randn(N_STATES, N_ACTIONS, generator=gen) * 2
    transitions = torch.randint(0, N_STATES, (N_STATES, N_ACTIONS), generator=gen)
    eye = torch.eye(N_STATES)

    q_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
    target_net = copy.deepcopy(q_net).requires_grad_(False)
    optimizer = torch.optim.RMSprop(q_net.parameters(), lr=2e-3)
    callbacks = [ClipMonitor()]

    for update in range(UPDATES):
        s, a, r, s_next = sample_batch(rewards, transitions, gen)
        q_sa = q_net(eye[s]).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = r + GAMMA * target_net(eye[s_next]).max(dim=1).values
        per_sample = ClippedTD.apply(q_sa, target)
        loss = per_sample.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for cb in callbacks:
            cb.on_update_end(update, per_sample)
        if update % 3 == 2:
            target_net.load_state_dict(q_net.state_dict())
        print(f"update {update} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
