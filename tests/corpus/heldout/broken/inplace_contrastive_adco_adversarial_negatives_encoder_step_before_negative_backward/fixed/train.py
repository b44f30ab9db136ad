"""AdCo-style adversarial contrast: instead of a queue, the negatives are a learnable bank of
vectors trained to *maximise* the contrastive loss, while the query encoder minimises it. Keys
come from a momentum copy of the encoder. Negatives use their own (sharper) temperature."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, EMB_DIM, N_NEG, BATCH = 24, 16, 32, 16


class AdCoTrainer:
    def __init__(self, encoder, t=0.2, mem_t=0.05, momentum=0.9):
        self.encoder = encoder
        self.key_encoder = copy.deepcopy(encoder).requires_grad_(False)
        self.negatives = nn.Parameter(F.normalize(torch.randn(N_NEG, EMB_DIM), dim=1))
        self.enc_opt = torch.optim.SGD(encoder.parameters(), lr=0.05, momentum=0.9)
        self.neg_opt = torch.optim.SGD([self.negatives], lr=0.5, momentum=0.9)
        self.t, self.mem_t, self.momentum = t, mem_t, momentum

    def logits(self, q, k, temperature):
        pos = (q * k).sum(1, keepdim=True)
        neg = q @ F.normalize(self.negatives, dim=1).t()
        return torch.cat([pos, neg], dim=1) / temperature

    @torch.no_grad()
    def update_key_encoder(self):
        for p_k, p_q in zip(self.key_encoder.parameters(), self.encoder.parameters()):
            p_k.mul_(self.momentum).add_(p_q, alpha=1 - self.momentum)

    def step(self, view1, view2):
        q = F.normalize(self.encoder(view1), dim=1)
        with torch.no_grad():
            k = F.normalize(self.key_encoder(view2), dim=1)
        labels = torch.zeros(len(q), dtype=torch.long)
        loss = F.cross_entropy(self.logits(q, k, self.t), labels)
        adv_loss = -F.cross_entropy(self.logits(q.detach(), k, self.mem_t), labels)

        self.enc_opt.zero_grad()
        loss.backward()
        self.enc_opt.step()

        self.neg_opt.zero_grad()
        adv_loss.backward()
        self.neg_opt.step()
        self.update_key_encoder()
        return loss.item(), -adv_loss.item()


def two_views(x):
    return (x + 0.1 * torch.randn_like(x), x * (torch.rand_like(x) > 0.2).float())


torch.manual_seed(0)
centers = torch.randn(8, IN_DIM)
encoder = nn.Sequential(nn.Linear(IN_DIM, 48), nn.ReLU(), nn.Linear(48, EMB_DIM))
trainer = AdCoTrainer(encoder)
for it in range(5):
    x = centers[torch.randint(0, 8, (BATCH,))] + 0.3 * torch.randn(BATCH, IN_DIM)
    loss, mem_loss = trainer.step(*two_views(x))
    print(f"iter {it}: contrastive loss {loss:.4f}, negatives' loss {mem_loss:.4f}")
print(f"negative bank norm {trainer.negatives.norm(dim=1).mean().item():.4f}")
