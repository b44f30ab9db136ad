"""FedAvg client and server for a small simulation."""
import copy

import torch
import torch.nn.functional as F


class Client:
    def __init__(self, cid, global_model, x, y, lr=0.1):
        self.cid = cid
        self.global_model = global_model
        self.x, self.y = x, y
        self.optimizer = torch.optim.SGD(self.global_model.parameters(), lr=lr)

    def local_update(self, local_epochs=2, batch=16):
        # start every round from the current global weights
        self.local = copy.deepcopy(self.global_model)
        self.local.train()
        for _ in range(local_epochs):
            for i in range(0, len(self.x), batch):
                logits = self.local(self.x[i:i + batch])
                loss = F.cross_entropy(logits, self.y[i:i + batch])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
        return self.local.state_dict(), len(self.x), loss.item()


def fedavg(global_model, updates):
    total = sum(n for _, n, _ in updates)
    avg = {k: sum(sd[k] * (n / total) for sd, n, _ in updates) for k in updates[0][0]}
    global_model.load_state_dict(avg)
