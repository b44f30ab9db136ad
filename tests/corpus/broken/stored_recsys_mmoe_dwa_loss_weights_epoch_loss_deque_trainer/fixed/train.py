"""Multi-task recommendation (click and purchase heads on a shared MMoE-style bottom) with
Dynamic Weight Averaging: each task's weight depends on how fast its loss fell over the
previous two epochs, so the trainer keeps the last two epoch-average task losses."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, N_EXPERTS = 20, 30, 8, 3


class MultiTaskRecommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(2 * DIM, 16), nn.ReLU())
                                     for _ in range(N_EXPERTS))
        self.gates = nn.ModuleList(nn.Linear(2 * DIM, N_EXPERTS) for _ in range(2))
        self.towers = nn.ModuleList(nn.Linear(16, 1) for _ in range(2))

    def forward(self, users, items):
        x = torch.cat([self.user_emb(users), self.item_emb(items)], dim=-1)
        expert_out = torch.stack([e(x) for e in self.experts], dim=1)
        logits = []
        for gate, tower in zip(self.gates, self.towers):
            mix = (F.softmax(gate(x), -1).unsqueeze(-1) * expert_out).sum(1)
            logits.append(tower(mix).squeeze(-1))
        return logits


class DWATrainer:
    def __init__(self, model, temperature=2.0, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.temperature = temperature
        self.loss_history = deque(maxlen=2)

    def task_weights(self):
        if len(self.loss_history) < 2:
            return torch.ones(2)
        ratio = self.loss_history[-1] / self.loss_history[-2]
        return 2 * F.softmax(ratio / self.temperature, dim=0)

    def train_epoch(self, epoch, batches):
        weights = self.task_weights()
        epoch_sum = torch.zeros(2)
        for users, items, clicks, buys in batches:
            click_logit, buy_logit = self.model(users, items)
            task_losses = torch.stack([
                F.binary_cross_entropy_with_logits(click_logit, clicks),
                F.binary_cross_entropy_with_logits(buy_logit, buys),
            ])
            loss = (weights * task_losses).sum()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            epoch_sum = epoch_sum + task_losses.detach()
        self.loss_history.append(epoch_sum / len(batches))
        print(f"epoch {epoch}: weights {weights.tolist()} "
              f"click {self.loss_history[-1][0].item():.4f} buy {self.loss_history[-1][1].item():.4f}")


def interactions(n_batches, batch=16):
    out = []
    for _ in range(n_batches):
        users = torch.randint(0, N_USERS, (batch,))
        items = torch.randint(0, N_ITEMS, (batch,))
        clicks = ((users + items) % 3 == 0).float()
        buys = clicks * ((items % 2) == 0).float()
        out.append((users, items, clicks, buys))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = DWATrainer(MultiTaskRecommender())
    data = interactions(3)
    for epoch in range(4):
        trainer.train_epoch(epoch, data)
