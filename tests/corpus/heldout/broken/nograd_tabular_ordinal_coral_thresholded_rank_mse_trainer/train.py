"""Ordinal regression (CORAL-style) for a customer-satisfaction survey table: the answer is
a 1-5 star score, the model outputs K-1 cumulative logits P(score > k), and the predicted
score is the number of thresholds passed. Trained with a squared-error loss on the score so
that predictions two stars off cost more than predictions one star off.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ROWS, N_FEAT, N_LEVELS, BATCH, EPOCHS = 90, 6, 5, 30, 3


class CoralHead(nn.Module):
    """One shared weight vector, K-1 ordered biases (rank-consistent thresholds)."""

    def __init__(self, in_dim):
        super().__init__()
        self.fc = nn.Linear(in_dim, 1, bias=False)
        self.biases = nn.Parameter(torch.linspace(1.0, -1.0, N_LEVELS - 1))

    def forward(self, h):
        return self.fc(h) + self.biases                        # (B, K-1)


class SurveyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_FEAT, 24), nn.SiLU(), nn.Linear(24, 12), nn.SiLU())
        self.head = CoralHead(12)

    def forward(self, x):
        return self.head(self.body(x))


class OrdinalTrainer:
    def __init__(self, model, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def training_step(self, x, score):
        logits = self.model(x)
        pred_rank = (torch.sigmoid(logits) > 0.5).sum(dim=1).float()
        loss = F.mse_loss(pred_rank, score.float())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        mae = (pred_rank - score.float()).abs().mean().item()
        return loss.item(), mae

    def fit(self, x, score, epochs):
        for epoch in range(epochs):
            perm = torch.randperm(x.shape[0])
            results = [self.training_step(x[i], score[i])
                       for i in perm.split(BATCH)]
            print(f"epoch {epoch} loss {sum(r[0] for r in results) / len(results):.4f} "
                  f"mae {sum(r[1] for r in results) / len(results):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(N_ROWS, N_FEAT)
    latent = 1.5 * x[:, 0] + x[:, 1] - 0.5 * x[:, 2] ** 2
    score = torch.bucketize(latent, torch.tensor([-1.5, -0.5, 0.5, 1.5]))   # 0..4 = 1..5 stars
    OrdinalTrainer(SurveyModel()).fit(x, score, EPOCHS)
