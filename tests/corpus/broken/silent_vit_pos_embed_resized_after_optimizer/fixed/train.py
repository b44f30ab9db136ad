"""Fine-tune a small ViT, pretrained on 16x16 patches, on 24x24 texture crops.
The run config asks for a larger image size than the checkpoint was trained at, so the
positional embedding is resampled before training starts."""
import argparse

import torch
import torch.nn.functional as F

from model import TinyViT


def texture_batch(n, size, generator):
    """Stripes (horizontal / vertical) and checkerboards with noise, labels 0/1/2."""
    labels = torch.randint(0, 3, (n,), generator=generator)
    ys, xs = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    patterns = torch.stack([(ys // 3) % 2, (xs // 3) % 2, ((ys // 3) + (xs // 3)) % 2]).float()
    images = patterns[labels] + 0.3 * torch.randn(n, size, size, generator=generator)
    return images.unsqueeze(1), labels


def build_optimizer(model, lr, weight_decay):
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2 and "pos_embed" not in n]
    no_decay = [p for n, p in model.named_parameters() if p.ndim < 2 or "pos_embed" in n]
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                              {"params": no_decay, "weight_decay": 0.0}], lr=lr)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--img-size", type=int, default=24)
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = TinyViT(img_size=16)
    if args.img_size != model.img_size:
        model.set_image_size(args.img_size)
    optimizer = build_optimizer(model, lr=1e-3, weight_decay=0.05)

    model.train()
    for step in range(args.steps):
        images, labels = texture_batch(32, args.img_size, gen)
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.2f}")
    return model


if __name__ == "__main__":
    main()
