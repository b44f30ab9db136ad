"""FedAvg server with loss-aware client selection (Power-of-Choice, Cho et al. 2020): each
round it probes a candidate set with the current global model and picks the clients whose
running average loss is highest."""
import copy

import torch
import torch.nn.functional as F


class FedAvgServer:
    def __init__(self, global_model, clients, per_round=3, candidates=5):
        self.model = global_model
        self.clients = clients
        self.per_round = per_round
        self.candidates = candidates
        self.loss_totals = {cid: 0.0 for cid in clients}
        self.probes = {cid: 0 for cid in clients}

    def probe(self, cid):
        x, y = self.clients[cid].probe_batch()
        with torch.no_grad():  # probing only ranks clients, nothing is trained on it
            loss = F.cross_entropy(self.model(x), y)
        self.loss_totals[cid] = self.loss_totals[cid] + loss.item()
        self.probes[cid] += 1

    def select(self, generator):
        ids = list(self.clients)
        order = torch.randperm(len(ids), generator=generator)[: self.candidates]
        pool = [ids[i] for i in order]
        for cid in pool:
            self.probe(cid)
        pool.sort(key=lambda cid: float(self.loss_totals[cid]) / self.probes[cid], reverse=True)
        return pool[: self.per_round]

    def aggregate(self, updates):
        total = sum(n for _, n in updates)
        averaged = copy.deepcopy(updates[0][0])
        for name in averaged:
            averaged[name] = sum(state[name] * (n / total) for state, n in updates)
        self.model.load_state_dict(averaged)
