"""Contrastive item embeddings (item2vec style): items that co-occur in a basket are pulled
together with InfoNCE through a projection head, and every item is also pulled toward its
category prototype, kept as an exponential moving average of the item embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, N_CATS, DIM, TAU = 48, 4, 16, 0.2


class ProtoContrastTrainer:
    def __init__(self, momentum=0.9, proto_weight=0.5):
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.proj = nn.Sequential(nn.Linear(DIM, DIM), nn.ReLU(), nn.Linear(DIM, DIM))
        params = [*self.item_emb.parameters(), *self.proj.parameters()]
        self.optimizer = torch.optim.Adam(params, lr=1e-2)
        self.momentum, self.proto_weight = momentum, proto_weight
        self.prototypes = torch.zeros(N_CATS, DIM)

    def update_prototypes(self, emb, cats):
        sums = torch.zeros(N_CATS, DIM).index_add(0, cats, emb.detach())
        counts = torch.bincount(cats, minlength=N_CATS).clamp(min=1).unsqueeze(1)
        self.prototypes = self.momentum * self.prototypes + (1 - self.momentum) * sums / counts

    def step(self, anchors, positives, cats):
        e_a, e_p = self.item_emb(anchors), self.item_emb(positives)
        z_a = F.normalize(self.proj(e_a), dim=1)
        z_p = F.normalize(self.proj(e_p), dim=1)
        logits = z_a @ z_p.t() / TAU
        nce = F.cross_entropy(logits, torch.arange(len(anchors)))

        self.update_prototypes(e_a, cats)
        proto_logits = F.normalize(e_a, dim=1) @ F.normalize(self.prototypes, dim=1).t() / TAU
        proto = F.cross_entropy(proto_logits, cats)
        loss = nce + self.proto_weight * proto

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return nce.item(), proto.item()


def baskets(n_steps, gen, batch=24):
    item_cat = torch.arange(N_ITEMS) % N_CATS
    for _ in range(n_steps):
        anchors = torch.randint(0, N_ITEMS, (batch,), generator=gen)
        offset = N_CATS * torch.randint(1, 4, (batch,), generator=gen)
        positives = (anchors + offset) % N_ITEMS
        yield anchors, positives, item_cat[anchors]


def main():
    torch.manual_seed(0)
    trainer = ProtoContrastTrainer()
    for step, batch in enumerate(baskets(10, torch.Generator().manual_seed(11))):
        nce, proto = trainer.step(*batch)
        print(f"step {step} infonce {nce:.4f} proto {proto:.4f}")


if __name__ == "__main__":
    main()
