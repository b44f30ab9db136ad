"""Support-ticket triage: one shared text encoder, two classification heads (topic and
urgency), the two cross-entropies weighted by learned task uncertainties."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import UncertaintyWeighting

VOCAB, PAD = 50, 0
TOPICS, URGENCY = 4, 3


@dataclass
class TrainConfig:
    dim: int = 24
    lr: float = 5e-3
    batch: int = 32
    epochs: int = 3
    steps_per_epoch: int = 2


class TicketEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim, padding_idx=PAD)
        self.conv = nn.Conv1d(dim, dim, kernel_size=3, padding=1)
        self.topic_head = nn.Linear(dim, TOPICS)
        self.urgency_head = nn.Linear(dim, URGENCY)

    def forward(self, tokens):
        x = self.embed(tokens).transpose(1, 2)
        h = F.relu(self.conv(x)).masked_fill((tokens == PAD).unsqueeze(1), float("-inf"))
        pooled = h.max(dim=2).values
        return self.topic_head(pooled), self.urgency_head(pooled)


def synthetic_tickets(n, gen, length=12):
    """Topic decides a band of content words; urgency adds marker words ('asap', 'down', ...)."""
    topic = torch.randint(0, TOPICS, (n,), generator=gen)
    urgency = torch.randint(0, URGENCY, (n,), generator=gen)
    tokens = torch.randint(1, 10, (n, length), generator=gen)
    content = 10 + topic[:, None] * 8 + torch.randint(0, 8, (n, length // 2), generator=gen)
    tokens[:, : length // 2] = content
    tokens[:, length // 2] = 42 + urgency
    lengths = torch.randint(length - 3, length + 1, (n,), generator=gen)
    tokens[torch.arange(length)[None, :] >= lengths[:, None]] = PAD
    return tokens, topic, urgency


class Trainer:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.model = TicketEncoder(cfg.dim)
        self.criterion = UncertaintyWeighting(n_tasks=2)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr)
        self.gen = torch.Generator().manual_seed(0)

    def step(self, tokens, topic, urgency):
        topic_logits, urgency_logits = self.model(tokens)
        task_losses = [F.cross_entropy(topic_logits, topic), F.cross_entropy(urgency_logits, urgency)]
        loss = self.criterion(task_losses)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), [t.item() for t in task_losses]

    def fit(self):
        for epoch in range(self.cfg.epochs):
            for _ in range(self.cfg.steps_per_epoch):
                batch = synthetic_tickets(self.cfg.batch, self.gen)
                loss, (topic_ce, urgency_ce) = self.step(*batch)
            weights = ", ".join(f"{w:.3f}" for w in self.criterion.weights())
            print(f"epoch {epoch} loss {loss:.4f} topic ce {topic_ce:.4f} "
                  f"urgency ce {urgency_ce:.4f} task weights [{weights}]")


torch.manual_seed(0)
trainer = Trainer(TrainConfig())
trainer.fit()
params = list(trainer.model.parameters()) + list(trainer.criterion.parameters())
print(f"checksum {sum(p.sum().item() for p in params):.6f}")
