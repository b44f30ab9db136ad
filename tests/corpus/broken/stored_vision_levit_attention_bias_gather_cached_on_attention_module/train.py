"""Train the tiny LeViT on synthetic 8x8 images of three stroke orientations."""
import torch
import torch.nn.functional as F

from model import TinyLeViT


def make_images(n):
    labels = torch.randint(0, 3, (n,))
    images = 0.3 * torch.randn(n, 1, 8, 8)
    idx = torch.arange(8)
    for i, c in enumerate(labels.tolist()):
        if c == 0:
            images[i, 0, 3, :] += 1.0
        elif c == 1:
            images[i, 0, :, 3] += 1.0
        else:
            images[i, 0, idx, idx] += 1.0
    return images, labels


def train(epochs=3, batches=2, batch_size=12):
    torch.manual_seed(0)
    model = TinyLeViT(n_classes=3)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.05)
    for epoch in range(epochs):
        model.train()
        for _ in range(batches):
            images, labels = make_images(batch_size)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
