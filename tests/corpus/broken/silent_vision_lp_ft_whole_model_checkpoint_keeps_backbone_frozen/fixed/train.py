"""LP-FT on a toy texture task: stage 1 fits a linear probe on the pretrained backbone,
the whole model is checkpointed, and stage 2 reloads that checkpoint and fine-tunes
everything (small lr on the backbone, larger lr on the head)."""
import io

import torch
import torch.nn.functional as F

from model import TextureNet

N_CLASSES, SIZE = 4, 10


def texture_batch(n=24):
    """Class k: horizontal stripes (0), vertical stripes (1), checkerboard (2), noise (3)."""
    y = torch.randint(0, N_CLASSES, (n,))
    r = torch.arange(SIZE)
    patterns = torch.stack([
        (r[:, None] % 2).expand(SIZE, SIZE),
        (r[None, :] % 2).expand(SIZE, SIZE),
        (r[:, None] + r[None, :]) % 2,
        torch.zeros(SIZE, SIZE, dtype=torch.long),
    ]).float()
    x = patterns[y].unsqueeze(1) + 0.4 * torch.randn(n, 1, SIZE, SIZE)
    return x, y


def linear_probe(model, steps=3):
    model.backbone.requires_grad_(False)
    model.backbone.eval()
    opt = torch.optim.SGD(model.head.parameters(), lr=0.1, momentum=0.9)
    for step in range(steps):
        x, y = texture_batch()
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"probe {step} loss {loss.item():.4f}")


def finetune(checkpoint, steps=5):
    checkpoint.seek(0)
    model = torch.load(checkpoint, weights_only=False)
    model.train()
    model.requires_grad_(True)  # the probe stage froze the backbone; the pickle kept it
    opt = torch.optim.AdamW([
        {"params": model.backbone.parameters(), "lr": 3e-4},
        {"params": model.head.parameters(), "lr": 3e-3},
    ], weight_decay=0.01)
    for step in range(steps):
        x, y = texture_batch()
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"finetune {step} loss {loss.item():.4f}")
    return model


torch.manual_seed(0)
net = TextureNet(N_CLASSES)  # backbone weights stand in for a self-supervised encoder
linear_probe(net)
ckpt = io.BytesIO()  # stands in for probe.pt on disk
torch.save(net, ckpt)
final = finetune(ckpt)
print("checksum", round(sum(p.sum().item() for p in final.parameters()), 4))
