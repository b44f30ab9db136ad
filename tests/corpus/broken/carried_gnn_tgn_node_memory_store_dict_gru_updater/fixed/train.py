"""Temporal graph network (TGN-style) for link prediction on a stream of interactions.

Every node has a memory vector. At the start of a batch the memory of the nodes involved is
refreshed by a GRU from the raw messages of their previous interactions; the refreshed
memory embeds the nodes for link prediction, and is written back to the memory store.
"""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, MEM_DIM, EDGE_DIM, TIME_DIM, BATCH_EVENTS = 20, 16, 6, 4, 8


class TimeEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.freq = nn.Linear(1, dim)

    def forward(self, dt):
        return torch.cos(self.freq(dt.unsqueeze(-1)))


class NodeMemory(nn.Module):
    def __init__(self):
        super().__init__()
        self.time_enc = TimeEncoder(TIME_DIM)
        self.updater = nn.GRUCell(EDGE_DIM + TIME_DIM, MEM_DIM)
        self.store = {}
        self.last_update = defaultdict(float)
        self.pending = {}

    def read(self, node):
        return self.store.get(node, torch.zeros(MEM_DIM))

    def refresh(self, nodes, now):
        mem = torch.stack([self.read(n) for n in nodes])
        msgs = torch.stack([self.pending.get(n, torch.zeros(EDGE_DIM)) for n in nodes])
        dt = torch.tensor([now - self.last_update[n] for n in nodes])
        return self.updater(torch.cat([msgs, self.time_enc(dt)], dim=-1), mem)

    def write(self, nodes, updated, now):
        for i, node in enumerate(nodes):
            self.store[node] = updated[i].detach()
            self.last_update[node] = now


class LinkPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * MEM_DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, h_src, h_dst):
        return self.mlp(torch.cat([h_src, h_dst], dim=-1)).squeeze(-1)


def event_stream(n_events):
    src = torch.randint(0, N_NODES // 2, (n_events,))
    dst = torch.randint(N_NODES // 2, N_NODES, (n_events,))
    t = torch.sort(torch.rand(n_events) * 100).values
    feats = torch.randn(n_events, EDGE_DIM)
    return src, dst, t, feats


def main():
    torch.manual_seed(0)
    memory, predictor = NodeMemory(), LinkPredictor()
    optimizer = torch.optim.Adam(list(memory.parameters()) + list(predictor.parameters()), lr=1e-3)
    src, dst, t, feats = event_stream(6 * BATCH_EVENTS)
    for b in range(0, src.numel(), BATCH_EVENTS):
        s, d = src[b:b + BATCH_EVENTS], dst[b:b + BATCH_EVENTS]
        neg = torch.randint(N_NODES // 2, N_NODES, (s.numel(),))
        now = float(t[b + BATCH_EVENTS - 1])
        nodes = sorted(set(s.tolist()) | set(d.tolist()) | set(neg.tolist()))
        index = {n: i for i, n in enumerate(nodes)}
        updated = memory.refresh(nodes, now)
        h = lambda ids: updated[torch.tensor([index[n] for n in ids.tolist()])]
        pos_logit, neg_logit = predictor(h(s), h(d)), predictor(h(s), h(neg))
        loss = F.binary_cross_entropy_with_logits(pos_logit, torch.ones_like(pos_logit)) + \
            F.binary_cross_entropy_with_logits(neg_logit, torch.zeros_like(neg_logit))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        memory.write(nodes, updated, now)
        for k in range(s.numel()):
            memory.pending[int(s[k])] = feats[b + k]
            memory.pending[int(d[k])] = feats[b + k]
        print(f"batch {b // BATCH_EVENTS} events {b + BATCH_EVENTS} loss {loss.item():.4f} "
              f"nodes in memory {len(memory.store)}")


if __name__ == "__main__":
    main()
