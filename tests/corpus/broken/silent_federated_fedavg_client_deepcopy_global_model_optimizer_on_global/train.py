"""Simulated cross-device FedAvg on a non-IID activity-recognition task."""
import torch
import torch.nn as nn

from fl import Client, fedavg


def client_data(seed, n=48, d=10, n_classes=4):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(n_classes, d, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, n_classes, (n,), generator=g)
    y = torch.where(torch.rand(n, generator=g) < 0.5, y, torch.full_like(y, seed % n_classes))
    return protos[y] + 0.5 * torch.randn(n, d, generator=g), y


def main(rounds=3, n_clients=3):
    torch.manual_seed(0)
    global_model = nn.Sequential(nn.Linear(10, 24), nn.ReLU(), nn.Linear(24, 4))
    clients = [Client(c, global_model, *client_data(c + 1)) for c in range(n_clients)]
    for rnd in range(rounds):
        updates = [client.local_update() for client in clients]
        fedavg(global_model, updates)
        losses = ", ".join(f"{u[2]:.3f}" for u in updates)
        print(f"round {rnd} client losses [{losses}]")


if __name__ == "__main__":
    main()
