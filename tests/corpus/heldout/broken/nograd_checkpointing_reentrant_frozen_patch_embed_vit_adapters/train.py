"""Adapter tuning of a 'pretrained' ViT encoder for image retrieval with an InfoNCE loss
between two augmented views. The backbone is frozen; only the adapters train. Gradient
checkpointing is on to afford larger contrastive batches."""
import torch
import torch.nn.functional as F

from model import ViTEncoder


def two_views(images, gen):
    noise = lambda: 0.1 * torch.randn(images.shape, generator=gen)
    return images + noise(), images.flip(-1) + noise()


def info_nce(z1, z2, temperature=0.2):
    logits = z1 @ z2.T / temperature
    targets = torch.arange(z1.shape[0])
    return 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.T, targets))


def main(steps=5, batch=16):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    encoder = ViTEncoder()
    for name, p in encoder.named_parameters():
        p.requires_grad = "adapter" in name
    encoder.gradient_checkpointing_enable()
    encoder.train()
    trainable = [p for p in encoder.parameters() if p.requires_grad]
    print(f"trainable tensors: {len(trainable)} / {len(list(encoder.parameters()))}")
    optimizer = torch.optim.AdamW(trainable, lr=1e-3)
    gallery = torch.rand(64, 3, 16, 16, generator=gen)
    losses = []
    for step in range(steps):
        idx = torch.randperm(64, generator=gen)[:batch]
        view1, view2 = two_views(gallery[idx], gen)
        loss = info_nce(encoder(view1), encoder(view2))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        print(f"step {step}  info_nce {loss.item():.4f}")
    return losses


if __name__ == "__main__":
    main()
