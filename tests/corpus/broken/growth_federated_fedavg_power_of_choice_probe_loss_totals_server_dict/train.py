"""Federated averaging over 8 simulated hospitals with non-IID label skew. Clients run a few
local SGD steps on a copy of the global model; the server averages the returned weights,
weighting each client by its number of samples."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from server import FedAvgServer

torch.manual_seed(0)
N_FEATURES, N_CLASSES = 10, 3


class Client:
    def __init__(self, cid, n):
        skew = torch.full((N_CLASSES,), 0.2)
        skew[cid % N_CLASSES] = 1.0
        self.y = torch.multinomial(skew, n, replacement=True)
        self.x = torch.randn(n, N_FEATURES) + F.one_hot(self.y, N_FEATURES).float() * 2

    def probe_batch(self, k=16):
        return self.x[:k], self.y[:k]

    def local_train(self, global_model, epochs=1, batch=16, lr=0.1):
        model = copy.deepcopy(global_model)
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        running = 0.0
        for _ in range(epochs):
            for i in range(0, len(self.y), batch):
                loss = F.cross_entropy(model(self.x[i:i + batch]), self.y[i:i + batch])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                running += loss.item() * len(self.y[i:i + batch])
        return model.state_dict(), len(self.y), running / len(self.y)


def main(rounds=5):
    global_model = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ReLU(), nn.Linear(16, N_CLASSES))
    clients = {cid: Client(cid, 32 + 8 * cid) for cid in range(8)}
    server = FedAvgServer(global_model, clients)
    gen = torch.Generator().manual_seed(1)
    for rnd in range(rounds):
        chosen = server.select(gen)
        updates, losses = [], []
        for cid in chosen:
            state, n, local_loss = clients[cid].local_train(server.model)
            updates.append((state, n))
            losses.append(local_loss)
        server.aggregate(updates)
        print(f"round {rnd} clients {chosen} local loss {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    main()
