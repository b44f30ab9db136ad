"""Per-frame depth regressor on a short clip with a temporal-consistency term: each
frame's prediction should stay close to the previous frame's prediction."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, frames, targets, optimizer, smooth_weight=0.5):
    history = []
    for t, (frame, target) in enumerate(zip(frames, targets)):
        pred = model(frame)
        loss = F.l1_loss(pred, target)
        if history:
            loss = loss + smooth_weight * F.mse_loss(pred, history[-1])
        history.append(pred.detach())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"frame {t} loss {loss.item():.4f}")
    return history


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    frames = torch.rand(5, 1, 3, 12, 12)
    targets = torch.rand(5, 1, 1, 12, 12)
    history = train(model, frames, targets, optimizer)
    print(f"kept {len(history)} predictions")


if __name__ == "__main__":
    main()
