import argparse

import torch
import torch.nn.functional as F

from model import TinySegNet


def make_batch(gen, n=4, size=16):
    img = torch.rand(n, 3, size, size, generator=gen)
    mask = (img[:, 0] + 0.5 * img[:, 1] > 0.8).long()
    return img, mask


def dice_loss(logits, target, eps=1.0):
    prob = logits.softmax(dim=1)[:, 1]
    tgt = target.float()
    inter = (prob * tgt).sum()
    return 1 - (2 * inter + eps) / (prob.sum() + tgt.sum() + eps)


def main():
    parser = argparse.ArgumentParser(description="train the toy lesion segmenter")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batches", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = TinySegNet()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        for step in range(args.batches):
            img, mask = make_batch(gen)
            logits = model(img)
            loss = F.cross_entropy(logits, mask) + dice_loss(logits, mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
