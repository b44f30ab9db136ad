"""Train/validate epochs: validation under torch.no_grad() after odd epochs and under
torch.inference_mode() after even ones, with model.eval()/model.train() switching
dropout and batch norm."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(14)

model = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.2),
                      nn.Linear(32, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
train_x, train_y = torch.randn(32, 10), torch.randint(0, 3, (32,))
val_x, val_y = torch.randn(16, 10), torch.randint(0, 3, (16,))


def validate_no_grad():
    model.eval()
    with torch.no_grad():
        logits = model(val_x)
        return F.cross_entropy(logits, val_y).item(), (logits.argmax(1) == val_y).float().mean().item()


@torch.inference_mode()
def validate_inference():
    model.eval()
    logits = model(val_x)
    return F.cross_entropy(logits, val_y).item(), (logits.argmax(1) == val_y).float().mean().item()


for epoch in range(4):
    model.train()
    for x, y in zip(train_x.split(16), train_y.split(16)):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    val_loss, val_acc = validate_inference() if epoch % 2 == 0 else validate_no_grad()
    print(f"epoch {epoch} train {loss.item():.6f} val {val_loss:.6f} acc {val_acc:.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
