"""CLIP-style contrastive training of an "image" tower and a "text" tower on paired synthetic
features, with a learnable logit scale that is clamped in place after every optimizer step
(the paper caps it at 100). Zero-shot accuracy is measured against class-prompt embeddings
that are encoded once per epoch and reused for every evaluation batch."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

IMG_DIM, TXT_DIM, EMB_DIM, N_CLASSES, BATCH = 20, 14, 16, 5, 24


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.image = nn.Sequential(nn.Linear(IMG_DIM, 48), nn.GELU(), nn.Linear(48, EMB_DIM))
        self.text = nn.Sequential(nn.Linear(TXT_DIM, 48), nn.GELU(), nn.Linear(48, EMB_DIM))
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def encode_image(self, x):
        return F.normalize(self.image(x), dim=1)

    def encode_text(self, t):
        return F.normalize(self.text(t), dim=1)


def clip_loss(model, images, texts):
    logits = model.logit_scale.exp() * model.encode_image(images) @ model.encode_text(texts).t()
    targets = torch.arange(len(images))
    return 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))


torch.manual_seed(0)
to_img, to_txt = torch.randn(N_CLASSES, IMG_DIM), torch.randn(N_CLASSES, TXT_DIM)
prompts = to_txt + 0.1 * torch.randn(N_CLASSES, TXT_DIM)
model = TwoTower()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.1)

for epoch in range(3):
    model.train()
    for _ in range(2):
        c = torch.randint(0, N_CLASSES, (BATCH,))
        images = to_img[c] + 0.4 * torch.randn(BATCH, IMG_DIM)
        texts = to_txt[c] + 0.4 * torch.randn(BATCH, TXT_DIM)
        loss = clip_loss(model, images, texts)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            model.logit_scale.clamp_(0, math.log(100))
    model.eval()
    with torch.no_grad():
        class_emb = model.encode_text(prompts)
    correct = 0
    for _ in range(2):
        c = torch.randint(0, N_CLASSES, (BATCH,))
        with torch.no_grad():
            pred = (model.encode_image(to_img[c] + 0.4 * torch.randn(BATCH, IMG_DIM)) @ class_emb.t()).argmax(1)
        correct += (pred == c).sum().item()
    print(f"epoch {epoch}: loss {loss.item():.4f} scale {model.logit_scale.exp().item():.3f} "
          f"zero-shot acc {correct / (2 * BATCH):.3f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
