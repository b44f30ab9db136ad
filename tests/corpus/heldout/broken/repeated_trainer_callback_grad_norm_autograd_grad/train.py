"""Wine-quality style regression (synthetic) trained with the in-house Trainer and its
gradient-norm monitoring callback; a held-out split is scored after training."""
import torch
import torch.nn as nn

from callbacks import EpochLogger, GradNormMonitor
from trainer import Trainer

N_FEATURES = 11


def make_wines(n, true_w):
    x = torch.randn(n, N_FEATURES)
    y = torch.tanh(x @ true_w) + 0.05 * torch.randn(n, 1)
    return x, y


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


def main():
    torch.manual_seed(0)
    true_w = torch.randn(N_FEATURES, 1)
    x_train, y_train = make_wines(64, true_w)
    x_val, y_val = make_wines(32, true_w)
    loader = [(x_train[i:i + 16], y_train[i:i + 16]) for i in range(0, 64, 16)]

    model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.Tanh(), nn.Linear(32, 1))
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-2)
    monitor = GradNormMonitor()
    trainer = Trainer(model, optimizer, nn.MSELoss(), callbacks=[monitor, EpochLogger(monitor)])
    trainer.fit(loader, epochs=2)
    print(f"validation mse {evaluate(model, x_val, y_val):.4f}")


if __name__ == "__main__":
    main()
