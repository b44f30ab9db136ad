"""TGN-style link prediction on a stream of timestamped interactions. Every node has a
memory vector held in a module buffer. For each batch of interactions the memory of the
involved nodes is updated with a GRUCell from learned messages (with grad), used to score
the true and a corrupted destination, and after the optimizer step the updated rows are
written back into the buffer without history. The memory is reset every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, MEM, EDGE_FEAT, TIME_DIM, BATCH, EPOCHS, BATCHES = 24, 16, 4, 8, 6, 2, 4


def interaction_stream(gen):
    events = []
    for b in range(BATCHES):
        perm = torch.randperm(N_NODES, generator=gen)[:2 * BATCH]
        src, dst = perm[:BATCH], perm[BATCH:]
        t = b * 10.0 + torch.rand(BATCH, generator=gen).sort().values * 10
        feat = torch.randn(BATCH, EDGE_FEAT, generator=gen) + (src % 3).unsqueeze(1).float()
        events.append((src, dst, t, feat))
    return events


class TemporalMemoryNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("memory", torch.zeros(N_NODES, MEM))
        self.register_buffer("last_update", torch.zeros(N_NODES))
        self.time_enc = nn.Linear(1, TIME_DIM)
        self.message = nn.Sequential(nn.Linear(2 * MEM + TIME_DIM + EDGE_FEAT, 32), nn.ReLU(),
                                     nn.Linear(32, MEM))
        self.updater = nn.GRUCell(MEM, MEM)
        self.scorer = nn.Sequential(nn.Linear(2 * MEM, 16), nn.ReLU(), nn.Linear(16, 1))

    def reset_memory(self):
        self.memory.zero_()
        self.last_update.zero_()

    def updated_memory(self, nodes, others, t, feat):
        dt = (t - self.last_update[nodes]).unsqueeze(1) / 10.0
        msg = self.message(torch.cat([self.memory[nodes], self.memory[others],
                                      torch.cos(self.time_enc(dt)), feat], dim=1))
        return self.updater(msg, self.memory[nodes])

    def forward(self, src, dst, neg, t, feat):
        mem_src = self.updated_memory(src, dst, t, feat)
        mem_dst = self.updated_memory(dst, src, t, feat)
        pos = self.scorer(torch.cat([mem_src, mem_dst], dim=1)).squeeze(1)
        negative = self.scorer(torch.cat([mem_src, self.memory[neg]], dim=1)).squeeze(1)
        return pos, negative, mem_src, mem_dst

    @torch.no_grad()
    def persist(self, src, dst, t, mem_src, mem_dst):
        self.memory[src] = mem_src.detach()
        self.memory[dst] = mem_dst.detach()
        self.last_update[src] = t
        self.last_update[dst] = t


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    events = interaction_stream(gen)
    model = TemporalMemoryNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(EPOCHS):
        model.reset_memory()
        total, auc_hits = 0.0, 0
        for i, (src, dst, t, feat) in enumerate(events):
            neg = torch.randint(0, N_NODES, (BATCH,), generator=gen)
            pos, negative, mem_src, mem_dst = model(src, dst, neg, t, feat)
            loss = F.binary_cross_entropy_with_logits(pos, torch.ones_like(pos)) + \
                F.binary_cross_entropy_with_logits(negative, torch.zeros_like(negative))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model.persist(src, dst, t, mem_src, mem_dst)
            total += loss.item()
            auc_hits += (pos > negative).sum().item()
        print(f"epoch {epoch} loss {total / len(events):.4f} "
              f"pos>neg {auc_hits / (len(events) * BATCH):.3f} "
              f"memory norm {model.memory.norm().item():.4f}")
    checksum = sum(p.detach().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
