"""Supervised optical flow on synthetic image pairs: the second frame is the first one
translated by a random integer displacement, and a RAFT-style model (model.py) is trained with
RAFT's exponentially weighted sequence loss over its refinement iterations."""
import torch
import torch.nn.functional as F

from model import RAFTLite

SIZE = 16


def textured_pair(batch_size, gen):
    noise = torch.randn(batch_size, 3, SIZE // 4, SIZE // 4, generator=gen)
    image1 = F.interpolate(noise, size=(SIZE, SIZE), mode="bicubic", align_corners=False)
    shift = torch.randint(-2, 3, (batch_size, 2), generator=gen)
    image2 = torch.stack([torch.roll(img, shifts=(int(dy), int(dx)), dims=(1, 2))
                          for img, (dx, dy) in zip(image1, shift.tolist())])
    flow = shift.float()[:, :, None, None].expand(-1, -1, SIZE, SIZE)
    return image1, image2, flow


def sequence_loss(predictions, flow_gt, gamma=0.8):
    n = len(predictions)
    return sum(gamma ** (n - i - 1) * (pred - flow_gt).abs().mean()
               for i, pred in enumerate(predictions))


def train(model, optimizer, epochs=2, steps=3, batch_size=8):
    gen = torch.Generator().manual_seed(0)
    for epoch in range(epochs):
        for _ in range(steps):
            image1, image2, flow_gt = textured_pair(batch_size, gen)
            predictions = model(image1, image2)
            loss = sequence_loss(predictions, flow_gt)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        epe = (predictions[-1] - flow_gt).norm(dim=1).mean().item()
        print(f"epoch {epoch} sequence loss {loss.item():.4f} end-point error {epe:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RAFTLite()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-5)
    train(model, optimizer)
