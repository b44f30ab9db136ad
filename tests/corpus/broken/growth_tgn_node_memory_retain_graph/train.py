"""Temporal link prediction on a stream of interaction events (a very small TGN): every
node has a memory vector, events write messages into the destination node's memory, and
links are scored from the projected memories before each batch is written in.
retain_graph=True was added after the second batch raised "backward through the graph a
second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, EDGE_FEATS, MEM, EMB, BATCH, DECAY = 20, 6, 16, 8, 24, 0.9


class TemporalLinkTrainer:
    def __init__(self, lr=5e-3):
        self.msg_fn = nn.Linear(EDGE_FEATS, MEM)
        self.node_proj = nn.Sequential(nn.Linear(MEM, EMB), nn.Tanh())
        self.memory = torch.zeros(N_NODES, MEM)
        self.optimizer = torch.optim.Adam(
            [*self.msg_fn.parameters(), *self.node_proj.parameters()], lr=lr)

    def train_batch(self, src, dst, feats):
        neg = torch.randint(0, N_NODES, dst.shape)
        emb = self.node_proj(self.memory)
        pos_score = (emb[src] * emb[dst]).sum(-1)
        neg_score = (emb[src] * emb[neg]).sum(-1)
        loss = (F.binary_cross_entropy_with_logits(pos_score, torch.ones_like(pos_score))
                + F.binary_cross_entropy_with_logits(neg_score, torch.zeros_like(neg_score)))
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        self.memory = DECAY * self.memory.index_add(0, dst, self.msg_fn(feats))
        return loss.item()


def event_stream(n_batches):
    """Nodes interact mostly inside their community (node % 4); features encode it."""
    for _ in range(n_batches):
        src = torch.randint(0, N_NODES, (BATCH,))
        dst = (src + 4 * torch.randint(1, 5, (BATCH,))) % N_NODES
        feats = F.one_hot(src % 4, 4).float()
        yield src, dst, torch.cat([feats, torch.randn(BATCH, EDGE_FEATS - 4)], dim=1)


trainer = TemporalLinkTrainer()
for i, (src, dst, feats) in enumerate(event_stream(10)):
    loss = trainer.train_batch(src, dst, feats)
    print(f"batch {i} loss {loss:.4f}")
