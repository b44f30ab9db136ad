"""Online training of a reaching controller for a damped two-joint arm, one control tick at a time."""
import torch
import torch.nn as nn

torch.manual_seed(2)

DT = 0.05


class Controller(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 2))

    def forward(self, joint_state, goal):
        return torch.tanh(self.net(torch.cat([joint_state, goal], dim=-1)))


def joint_dynamics(state, torque):
    q, qd = state[..., :2], state[..., 2:]
    qdd = torque - 0.3 * qd - 0.5 * torch.sin(q)
    qd = qd + DT * qdd
    q = q + DT * qd
    return torch.cat([q, qd], dim=-1)


def make_control_step(controller, start_state):
    state = start_state

    def control_step(goal):
        nonlocal state
        torque = controller(state, goal)
        state = joint_dynamics(state, torque)
        reach_err = ((state[..., :2] - goal) ** 2).sum()
        return reach_err + 1e-3 * (torque ** 2).sum()

    return control_step


controller = Controller()
optimizer = torch.optim.Adam(controller.parameters(), lr=1e-2)
step = make_control_step(controller, torch.zeros(1, 4))
goal = torch.tensor([[0.6, -0.4]])

for tick in range(6):
    cost = step(goal)
    optimizer.zero_grad()
    cost.backward()
    optimizer.step()
    print(f"tick {tick} cost {cost.item():.5f}")
