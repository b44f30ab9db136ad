"""Churn prediction on a small customer table, scored with 3-fold cross-validation. A
fresh model is built for every fold so that no fold sees weights trained on its own
validation rows."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_ROWS, N_FEATURES, K_FOLDS, EPOCHS = 90, 7, 3, 3


def customer_table(n):
    x = torch.randn(n, N_FEATURES)
    logit = 1.5 * x[:, 0] - x[:, 2] + 0.5 * x[:, 4] * x[:, 5]
    return x, (logit + 0.3 * torch.randn(n) > 0).float()


def make_model():
    return nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ReLU(), nn.Linear(16, 1))


def cross_validate(x, y):
    criterion = nn.BCEWithLogitsLoss()
    fold_of_row = torch.arange(len(x)) % K_FOLDS
    scores = []
    for fold in range(K_FOLDS):
        model = make_model()
        optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)
        train_rows, val_rows = fold_of_row != fold, fold_of_row == fold
        for epoch in range(EPOCHS):
            loss = criterion(model(x[train_rows]).squeeze(1), y[train_rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            preds = model(x[val_rows]).squeeze(1) > 0
            scores.append((preds.float() == y[val_rows]).float().mean().item())
        print(f"fold {fold} train loss {loss.item():.4f} val acc {scores[-1]:.3f}")
    return sum(scores) / len(scores)


x, y = customer_table(N_ROWS)
print(f"cv accuracy {cross_validate(x, y):.3f}")
