"""Intrinsic Curiosity Module (ICM) trained on transitions from an exploring agent in a
small grid world. The feature encoder phi is shaped by the inverse model (which action led
from s to s'?) and the forward model (predict phi(s') from phi(s) and the action); the forward
error is the curiosity bonus. The two heads have their own loss and are backwarded one after
the other so that each can be logged and scaled on its own.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

GRID, N_ACTIONS, FEAT, BATCH, UPDATES = 5, 4, 16, 32, 5
BETA = 0.2  # weight of the forward loss, as in the ICM paper
MOVES = torch.tensor([[0, 1], [0, -1], [1, 0], [-1, 0]])


def one_hot_cell(pos):
    obs = torch.zeros(pos.shape[0], GRID * GRID)
    obs[torch.arange(pos.shape[0]), pos[:, 0] * GRID + pos[:, 1]] = 1.0
    return obs


def random_transitions(n):
    pos = torch.randint(0, GRID, (n, 2))
    actions = torch.randint(0, N_ACTIONS, (n,))
    nxt = (pos + MOVES[actions]).clamp(0, GRID - 1)
    return one_hot_cell(pos), actions, one_hot_cell(nxt)


class ICM(nn.Module):
    def __init__(self):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(GRID * GRID, 32), nn.ELU(), nn.Linear(32, FEAT))
        self.inverse = nn.Sequential(nn.Linear(2 * FEAT, 32), nn.ELU(), nn.Linear(32, N_ACTIONS))
        self.forward_model = nn.Sequential(nn.Linear(FEAT + N_ACTIONS, 32), nn.ELU(),
                                           nn.Linear(32, FEAT))

    def predict_next(self, feats, actions):
        a = F.one_hot(actions, N_ACTIONS).float()
        return self.forward_model(torch.cat([feats, a], dim=1))


torch.manual_seed(0)
icm = ICM()
optimizer = torch.optim.Adam(icm.parameters(), lr=1e-3)

for update in range(UPDATES):
    obs, actions, next_obs = random_transitions(BATCH)
    phi_s = icm.phi(obs)
    phi_next = icm.phi(next_obs)

    action_logits = icm.inverse(torch.cat([phi_s, phi_next], dim=1))
    inverse_loss = F.cross_entropy(action_logits, actions)
    pred_next = icm.predict_next(phi_s, actions)
    forward_loss = 0.5 * (pred_next - phi_next.detach()).pow(2).sum(dim=1).mean()

    optimizer.zero_grad()
    ((1 - BETA) * inverse_loss).backward()
    (BETA * forward_loss).backward()
    optimizer.step()

    with torch.no_grad():
        bonus = 0.5 * (pred_next - phi_next).pow(2).sum(dim=1)
    print(f"update {update} inverse {inverse_loss.item():.4f} forward {forward_loss.item():.4f} "
          f"mean bonus {bonus.mean().item():.4f}")
