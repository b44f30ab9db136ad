"""Customer churn model on tabular features; reports the epoch ROC AUC over every training
batch's predictions."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import roc_auc

torch.manual_seed(0)
N_NUM, N_PLANS, BATCH, BATCHES_PER_EPOCH = 6, 4, 32, 10


class ChurnModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.plan_emb = nn.Embedding(N_PLANS, 3)
        self.mlp = nn.Sequential(nn.Linear(N_NUM + 3, 32), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(32, 1))

    def forward(self, numeric, plan):
        return self.mlp(torch.cat([numeric, self.plan_emb(plan)], dim=1)).squeeze(-1)


def make_batch(n):
    numeric = torch.randn(n, N_NUM)
    plan = torch.randint(0, N_PLANS, (n,))
    logit = 1.5 * numeric[:, 0] - numeric[:, 1] + 0.7 * (plan == 0).float()
    return numeric, plan, (torch.rand(n) < torch.sigmoid(logit)).float()


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        self.epoch_probs, self.epoch_labels = [], []

    def train_epoch(self, epoch):
        self.model.train()
        self.epoch_probs, self.epoch_labels = [], []
        for _ in range(BATCHES_PER_EPOCH):
            numeric, plan, churned = make_batch(BATCH)
            logits = self.model(numeric, plan)
            loss = F.binary_cross_entropy_with_logits(logits, churned)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.epoch_probs.append(torch.sigmoid(logits))
            self.epoch_labels.append(churned)
        auc = roc_auc(torch.cat(self.epoch_probs), torch.cat(self.epoch_labels))
        print(f"epoch {epoch} last loss {loss.item():.4f} train AUC {auc:.3f}")


trainer = Trainer(ChurnModel())
for epoch in range(2):
    trainer.train_epoch(epoch)
