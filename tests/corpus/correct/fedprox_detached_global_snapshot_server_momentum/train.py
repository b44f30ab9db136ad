"""FedProx with server momentum (FedAvgM) for a small ECG-beat classifier split across
four clinics. Each round, every clinic deep-copies the global model, trains a few local
steps with a proximal term towards a snapshot of the global weights, and sends back its
state_dict. The server averages the updates, keeps a momentum buffer, and loads the result
into the global model."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, N_CLASSES, ROUNDS, LOCAL_STEPS, BATCH, MU = 16, 3, 3, 4, 16, 0.05


class FedServer:
    def __init__(self, model, server_lr=1.0, momentum=0.5):
        self.model = model
        self.server_lr = server_lr
        self.momentum = momentum
        self.velocity = {k: torch.zeros_like(v) for k, v in model.state_dict().items()}

    def snapshot(self):
        return {name: p.detach().clone() for name, p in self.model.named_parameters()}

    @torch.no_grad()
    def aggregate(self, client_states, n_samples):
        total = float(sum(n_samples))
        current = self.model.state_dict()
        new_state = {}
        for key, value in current.items():
            avg = sum(s[key] * (n / total) for s, n in zip(client_states, n_samples))
            self.velocity[key].mul_(self.momentum).add_(value - avg)
            new_state[key] = value - self.server_lr * self.velocity[key]
        self.model.load_state_dict(new_state)


def local_update(global_model, global_weights, x, y):
    model = copy.deepcopy(global_model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(LOCAL_STEPS):
        idx = torch.randint(0, len(y), (BATCH,))
        ce = F.cross_entropy(model(x[idx]), y[idx])
        prox = sum(((p - global_weights[name]) ** 2).sum() for name, p in model.named_parameters())
        loss = ce + 0.5 * MU * prox
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model.state_dict(), ce.item()


def clinic_data(n, tilt):
    prototypes = torch.linspace(-1, 1, N_CLASSES * N_FEATURES).reshape(N_CLASSES, N_FEATURES).cos()
    y = torch.randint(0, N_CLASSES, (n,))
    return prototypes[y] + tilt + 0.6 * torch.randn(n, N_FEATURES), y


torch.manual_seed(0)
clinics = [clinic_data(n, t) for n, t in [(40, 0.0), (64, 0.2), (32, -0.1), (56, 0.1)]]
server = FedServer(nn.Sequential(nn.Linear(N_FEATURES, 24), nn.ReLU(), nn.Linear(24, N_CLASSES)))
for rnd in range(ROUNDS):
    global_weights = server.snapshot()
    states, sizes, losses = [], [], []
    for x, y in clinics:
        state, ce = local_update(server.model, global_weights, x, y)
        states.append(state)
        sizes.append(len(y))
        losses.append(ce)
    server.aggregate(states, sizes)
    print(f"round {rnd} client ce " + " ".join(f"{c:.4f}" for c in losses))

with torch.no_grad():
    acc = [(server.model(x).argmax(1) == y).float().mean().item() for x, y in clinics]
print("global accuracy " + " ".join(f"{a:.3f}" for a in acc))
print(f"checksum {sum(p.sum().item() for p in server.model.parameters()):.6f}")
