"""FedAvg with server momentum (FedAvgM) and Power-of-Choice client selection.

The server probes candidate clients with the global model under torch.no_grad() and keeps
its running loss totals as Python floats; clients train deep copies of the global model
with their own optimizers; the server applies the averaged update to the global
parameters in place (p.add_) under no_grad, with a momentum buffer it also updates in place.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, N_CLASSES = 10, 3


class Client:
    def __init__(self, cid, n):
        skew = torch.full((N_CLASSES,), 0.2)
        skew[cid % N_CLASSES] = 1.0
        self.y = torch.multinomial(skew, n, replacement=True)
        self.x = torch.randn(n, N_FEATURES) + F.one_hot(self.y, N_FEATURES).float() * 2

    def local_train(self, global_model, epochs=1, batch=16, lr=0.1):
        model = copy.deepcopy(global_model)
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        running = 0.0
        for _ in range(epochs):
            for i in range(0, len(self.y), batch):
                xb, yb = self.x[i:i + batch], self.y[i:i + batch]
                loss = F.cross_entropy(model(xb), yb)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                running += loss.item() * len(yb)
        delta = {name: p.detach() - g.detach() for (name, p), g in
                 zip(model.named_parameters(), global_model.parameters())}
        return delta, len(self.y), running / len(self.y)


class Server:
    def __init__(self, model, clients, per_round=3, candidates=5, server_lr=1.0, beta=0.5):
        self.model = model
        self.clients = clients
        self.per_round, self.candidates = per_round, candidates
        self.server_lr, self.beta = server_lr, beta
        self.momentum = {name: torch.zeros_like(p) for name, p in model.named_parameters()}
        self.loss_totals = {cid: 0.0 for cid in clients}
        self.probes = {cid: 0 for cid in clients}

    @torch.no_grad()
    def probe(self, cid):
        client = self.clients[cid]
        loss = F.cross_entropy(self.model(client.x[:16]), client.y[:16])
        self.loss_totals[cid] += loss.item()
        self.probes[cid] += 1

    def select(self, generator):
        ids = list(self.clients)
        pool = [ids[i] for i in torch.randperm(len(ids), generator=generator)[: self.candidates]]
        for cid in pool:
            self.probe(cid)
        pool.sort(key=lambda cid: self.loss_totals[cid] / self.probes[cid], reverse=True)
        return pool[: self.per_round]

    @torch.no_grad()
    def apply(self, updates):
        total = sum(n for _, n in updates)
        for name, p in self.model.named_parameters():
            avg = sum(delta[name] * (n / total) for delta, n in updates)
            self.momentum[name].mul_(self.beta).add_(avg)
            p.add_(self.momentum[name], alpha=self.server_lr)


def main(rounds=5):
    model = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ReLU(), nn.Linear(16, N_CLASSES))
    clients = {cid: Client(cid, 32 + 8 * cid) for cid in range(8)}
    server = Server(model, clients)
    gen = torch.Generator().manual_seed(1)
    for rnd in range(rounds):
        chosen = server.select(gen)
        results = [clients[cid].local_train(server.model) for cid in chosen]
        server.apply([(delta, n) for delta, n, _ in results])
        mean_loss = sum(r[2] for r in results) / len(results)
        print(f"round {rnd} clients {chosen} local loss {mean_loss:.4f}")
    print(f"checksum {sum(p.detach().abs().sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
