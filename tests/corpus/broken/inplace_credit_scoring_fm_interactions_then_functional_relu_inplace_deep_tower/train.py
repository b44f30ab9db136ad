"""Credit default scoring: factorization-machine interactions plus a deep tower over categorical fields."""
import torch
import torch.nn as nn
import torch.nn.functional as F

FIELD_SIZES = [6, 4, 9, 5]   # employment type, housing, loan purpose, region
EMB = 8


class FMDeepScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.offsets = torch.tensor([0] + FIELD_SIZES[:-1]).cumsum(0)
        self.emb = nn.Embedding(sum(FIELD_SIZES), EMB)
        self.field_proj = nn.Linear(EMB, EMB)
        self.deep = nn.Sequential(nn.Linear(EMB * len(FIELD_SIZES), 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, fields):
        h = self.field_proj(self.emb(fields + self.offsets))      # (B, F, EMB)
        square_of_sum = h.sum(dim=1).pow(2)
        sum_of_square = h.pow(2).sum(dim=1)
        fm = 0.5 * (square_of_sum - sum_of_square).sum(dim=1, keepdim=True)
        deep_in = F.relu(h, inplace=True).flatten(1)
        return fm + self.deep(deep_in)


def make_train_step(model, opt):
    def train_step(fields, defaulted):
        logit = model(fields).squeeze(1)
        loss = F.binary_cross_entropy_with_logits(logit, defaulted)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.item()
    return train_step


if __name__ == "__main__":
    torch.manual_seed(21)
    model = FMDeepScorer()
    step = make_train_step(model, torch.optim.Adagrad(model.parameters(), lr=0.05))
    for it in range(6):
        fields = torch.stack([torch.randint(0, n, (32,)) for n in FIELD_SIZES], dim=1)
        defaulted = ((fields[:, 2] > 5) ^ (fields[:, 0] == 1)).float()
        print(f"step {it}: bce={step(fields, defaulted):.4f}")
