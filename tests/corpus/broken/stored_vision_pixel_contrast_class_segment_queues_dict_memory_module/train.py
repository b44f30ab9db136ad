"""Semantic segmentation with an auxiliary pixel-to-region contrastive loss (in the spirit
of "Exploring Cross-Image Pixel Contrast"): cross-entropy on every pixel, plus a supervised
InfoNCE between sampled anchor pixels and the class segment embeddings stored from earlier
batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from memory import SegmentQueues

N_CLASSES, EMB, SIZE, TAU = 3, 16, 8, 0.2


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.classifier = nn.Conv2d(16, N_CLASSES, 1)
        self.projector = nn.Sequential(nn.Conv2d(16, 16, 1), nn.ReLU(), nn.Conv2d(16, EMB, 1))

    def forward(self, images):
        feats = self.backbone(images)
        return self.classifier(feats), F.normalize(self.projector(feats), dim=1)


def pixel_to_region_contrast(embeddings, labels, memory, n_anchors=32):
    emb = embeddings.permute(0, 2, 3, 1).reshape(-1, EMB)
    lab = labels.reshape(-1)
    idx = torch.randperm(emb.size(0))[:n_anchors]
    anchors, anchor_labels = emb[idx], lab[idx]
    bank, bank_labels = memory.bank()
    logits = anchors @ bank.t() / TAU
    positives = (anchor_labels[:, None] == bank_labels[None, :]).float()
    log_prob = logits.log_softmax(dim=1)
    per_anchor = -(positives * log_prob).sum(1) / positives.sum(1).clamp(min=1)
    return per_anchor[positives.sum(1) > 0].mean()


def toy_scenes(batch, generator):
    """Three-class scenes: background, a square 'building', a horizontal 'road' stripe."""
    labels = torch.zeros(batch, SIZE, SIZE, dtype=torch.long)
    for b in range(batch):
        r, c = torch.randint(0, SIZE - 3, (2,), generator=generator).tolist()
        labels[b, r:r + 3, c:c + 3] = 1
        row = int(torch.randint(0, SIZE, (1,), generator=generator))
        labels[b, row] = 2
    palette = torch.tensor([[0.2, 0.6, 0.2], [0.7, 0.3, 0.3], [0.4, 0.4, 0.4]])
    images = palette[labels].permute(0, 3, 1, 2) + 0.1 * torch.randn(batch, 3, SIZE, SIZE, generator=generator)
    return images, labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    model = SegNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    memory = SegmentQueues(N_CLASSES, EMB, size=8)
    for step in range(6):
        images, labels = toy_scenes(4, gen)
        logits, embeddings = model(images)
        loss = F.cross_entropy(logits, labels)
        if len(memory) > 0:
            loss = loss + 0.1 * pixel_to_region_contrast(embeddings, labels, memory)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        memory.enqueue(embeddings, labels)
        miou_proxy = (logits.argmax(1) == labels).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} pixel acc {miou_proxy:.3f} memory {len(memory)}")


if __name__ == "__main__":
    main()
