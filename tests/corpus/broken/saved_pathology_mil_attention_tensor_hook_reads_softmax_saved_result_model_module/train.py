"""Slide-level tumour classification from tile features with attention MIL."""
import torch
import torch.nn.functional as F

from model import AttentionMIL

FEAT, N_CLASSES = 24, 2


def make_slide(gen, label):
    n_tiles = int(torch.randint(6, 14, (1,), generator=gen))
    tiles = torch.randn(n_tiles, FEAT, generator=gen)
    if label == 1:
        n_tumour = max(1, n_tiles // 4)
        tiles[:n_tumour, :4] += 2.5
    return tiles


def train_epoch(model, opt, gen, epoch, slides_per_epoch=4):
    model.train()
    for i in range(slides_per_epoch):
        label = i % 2
        logits = model(make_slide(gen, label))
        loss = F.cross_entropy(logits, torch.tensor([label]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        top_tile, grad_norm = model.attention_log[-1]
        print(f"epoch {epoch} slide {i}: loss={loss.item():.4f} top_tile={top_tile} attn_grad={grad_norm:.4f}")


if __name__ == "__main__":
    torch.manual_seed(9)
    gen = torch.Generator().manual_seed(9)
    model = AttentionMIL(FEAT, 32, N_CLASSES)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
    for epoch in range(2):
        train_epoch(model, opt, gen, epoch)
