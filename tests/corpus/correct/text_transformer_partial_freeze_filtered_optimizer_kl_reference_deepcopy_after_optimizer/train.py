"""Fine-tuning a tiny pretrained transformer on a topic task: the embeddings and the bottom
encoder layer stay frozen, only trainable parameters go to AdamW, and a KL penalty keeps the
predictions close to a frozen copy of the starting model (copied after the optimizer was
built: the copy is only a reference, the optimizer holds the model that is trained)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, SEQ, D, N_TOPICS = 30, 10, 24, 3


class TinyTextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(SEQ, D)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(D, 4, 2 * D, dropout=0.0, batch_first=True)
            for _ in range(2))
        self.head = nn.Linear(D, N_TOPICS)

    def forward(self, ids):
        h = self.tok(ids) + self.pos(torch.arange(ids.shape[1]))
        for layer in self.layers:
            h = layer(h)
        return self.head(h[:, 0])


def topic_batch(n=16):
    y = torch.randint(0, N_TOPICS, (n,))
    ids = torch.randint(12, VOCAB, (n, SEQ))
    ids[:, 0] = 0
    hits = torch.randint(1, SEQ, (n, 3))
    ids.scatter_(1, hits, (4 * y + 1)[:, None].expand(-1, 3) + torch.randint(0, 3, (n, 3)))
    return ids, y


@torch.no_grad()
def accuracy(model, batches):
    model.eval()
    correct = sum((model(ids).argmax(1) == y).float().mean().item() for ids, y in batches)
    model.train()
    return correct / len(batches)


class Trainer:
    def __init__(self, model, beta=0.1, lr=2e-3):
        self.model = model
        self.beta = beta
        for module in (model.tok, model.pos, model.layers[0]):
            module.requires_grad_(False)
        trainable = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(trainable, lr=lr, weight_decay=0.01)
        self.reference = copy.deepcopy(model).eval()
        self.reference.requires_grad_(False)
        self.callbacks = []

    def step(self, ids, y):
        logits = self.model(ids)
        with torch.no_grad():
            ref_logp = F.log_softmax(self.reference(ids), -1)
        logp = F.log_softmax(logits, -1)
        kl = F.kl_div(ref_logp, logp, log_target=True, reduction="batchmean")
        ce = F.cross_entropy(logits, y)
        loss = ce + self.beta * kl
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        for cb in self.callbacks:
            cb(self, ce.item(), kl.item())


def print_losses(trainer, ce, kl):
    print(f"ce {ce:.4f} kl {kl:.5f}")


torch.manual_seed(0)
model = TinyTextEncoder()  # stands in for the pretrained checkpoint
trainer = Trainer(model)
trainer.callbacks.append(print_losses)
held_out = [topic_batch() for _ in range(2)]
for step in range(6):
    trainer.step(*topic_batch())
    if step % 3 == 2:
        print(f"held-out accuracy {accuracy(model, held_out):.3f}")
frozen = sum(p.sum().item() for p in model.tok.parameters())
print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4),
      "frozen", round(frozen, 4))
