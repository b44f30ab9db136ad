"""Multi-task net: a shared trunk feeds a classification head and a regression head."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N, IN, HID, CLASSES, BATCH = 48, 10, 24, 3, 16

x_all = torch.randn(N, IN)
cls_all = torch.randint(0, CLASSES, (N,))
reg_all = torch.randn(N, 1)

trunk = nn.Sequential(nn.Linear(IN, HID), nn.GELU(), nn.Linear(HID, HID), nn.GELU())
head_cls = nn.Linear(HID, CLASSES)
head_reg = nn.Linear(HID, 1)
params = list(trunk.parameters()) + list(head_cls.parameters()) + list(head_reg.parameters())
opt = torch.optim.AdamW(params, lr=1e-3)
ce, mse = nn.CrossEntropyLoss(), nn.MSELoss()

for epoch in range(2):
    for start in range(0, N, BATCH):
        x = x_all[start:start + BATCH]
        feats = trunk(x)
        loss_a = ce(head_cls(feats), cls_all[start:start + BATCH])
        loss_b = mse(head_reg(feats), reg_all[start:start + BATCH])
        opt.zero_grad()
        (loss_a + loss_b).backward()
        opt.step()
    print(f"epoch {epoch} cls {loss_a.item():.4f} reg {loss_b.item():.4f}")
