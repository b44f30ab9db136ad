"""Future-link prediction on a synthetic interaction stream (user -> item events) with a
TGN-style node memory from memory.py."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from memory import NodeMemory, TimeEncoder

NUM_NODES, EDGE_DIM, TIME_DIM, MEM_DIM, BATCH = 30, 4, 4, 16, 10


def event_stream(n_events):
    src = torch.randint(0, 15, (n_events,))
    dst = 15 + (src * 7 + torch.randint(0, 3, (n_events,))) % 15
    t = torch.sort(torch.rand(n_events) * 100).values
    feats = torch.randn(n_events, EDGE_DIM)
    return src, dst, t, feats


class LinkDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * MEM_DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, a, b):
        return self.mlp(torch.cat([a, b], dim=1)).squeeze(1)


def main():
    torch.manual_seed(0)
    src, dst, t, feats = event_stream(60)
    memory = NodeMemory(NUM_NODES, EDGE_DIM + TIME_DIM, MEM_DIM)
    time_enc = TimeEncoder(TIME_DIM)
    decoder = LinkDecoder()
    params = [*memory.parameters(), *time_enc.parameters(), *decoder.parameters()]
    optimizer = torch.optim.Adam(params, lr=1e-3)

    for start in range(0, src.numel(), BATCH):
        s, d = src[start:start + BATCH], dst[start:start + BATCH]
        bt, bf = t[start:start + BATCH], feats[start:start + BATCH]
        neg = torch.randint(15, NUM_NODES, (s.numel(),))

        msg_s = torch.cat([bf, time_enc(bt - memory.last_update[s])], dim=1)
        msg_d = torch.cat([bf, time_enc(bt - memory.last_update[d])], dim=1)
        mem_s = memory.update(s, msg_s, bt)
        mem_d = memory.update(d, msg_d, bt)
        mem_neg = memory.read(neg)

        pos_logit, neg_logit = decoder(mem_s, mem_d), decoder(mem_s, mem_neg)
        loss = (F.binary_cross_entropy_with_logits(pos_logit, torch.ones_like(pos_logit))
                + F.binary_cross_entropy_with_logits(neg_logit, torch.zeros_like(neg_logit)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"events {start:2d}-{start + s.numel() - 1:2d} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
