"""Online model learning for a 2-link planar arm: a nominal rigid-body model predicts the next
joint state, and a GRU-cell residual model learns the unmodelled friction and backlash while
the arm moves. The learner is updated at every control tick from the newest transition, and
its recurrent state carries the recent motion history from tick to tick.
retain_graph=True was added when the second tick raised "Trying to backward through the
graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
STATE, ACTION, HIDDEN, TICKS, DT = 4, 2, 24, 8, 0.05


class ResidualDynamics(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(STATE + ACTION, HIDDEN)
        self.readout = nn.Linear(HIDDEN, STATE)


def nominal_model(state, torque):
    q, qd = state[..., :2], state[..., 2:]
    return torch.cat([q + DT * qd, qd + DT * torque], dim=-1)


def true_arm(state, torque):
    q, qd = state[..., :2], state[..., 2:]
    friction = 0.8 * torch.tanh(5 * qd) + 0.2 * qd
    qd_next = qd + DT * (torque - friction)
    return torch.cat([q + DT * qd_next, qd_next], dim=-1)


def make_online_learner(model, lr=5e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    h = torch.zeros(1, HIDDEN)

    def update(state, torque, next_state):
        nonlocal h
        h = model.cell(torch.cat([state, torque], dim=-1), h)
        predicted = nominal_model(state, torque) + DT * model.readout(h)
        loss = F.mse_loss(predicted, next_state) / DT ** 2
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        h = h.detach()  # keep the motion history as a value, not as a graph
        return loss.item()

    return update


model = ResidualDynamics()
update = make_online_learner(model)
state = torch.zeros(1, STATE)
for tick in range(TICKS):
    torque = torch.sin(torch.tensor([[0.7 * tick, 1.3 * tick]]))
    next_state = true_arm(state, torque)
    print(f"tick {tick} residual loss {update(state, torque, next_state):.5f}")
    state = next_state
print(f"readout checksum {model.readout.weight.sum().item():.4f}")
