"""Tiny DETR-style detector with Deformable-DETR-like iterative box refinement.

In-place writes that look risky but are safe:
- each refinement layer adds the inverse-sigmoid of the previous reference to the raw box
  offsets with tmp[..., :2] += ...: tmp is the output of a Linear, which saves its input and
  weight, not its output;
- the reference boxes fed to the next layer are detached, and nothing writes into them or
  into the sigmoid outputs that SigmoidBackward saved;
- ReLU(inplace=True) follows GroupNorm, which saves its input, not its output;
- the matching cost is built and masked in place under no_grad.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

IMG, QUERIES, DIM = 32, 4, 32


def scenes(n, gen):
    """One or two bright rectangles per image; boxes as normalised (cx, cy, w, h)."""
    images = 0.1 * torch.randn(n, 1, IMG, IMG, generator=gen)
    boxes, counts = torch.zeros(n, 2, 4), torch.randint(1, 3, (n,), generator=gen)
    for i in range(n):
        for j in range(int(counts[i])):
            w, h = (int(v) for v in torch.randint(5, 12, (2,), generator=gen))
            x0 = int(torch.randint(0, IMG - w, (1,), generator=gen))
            y0 = int(torch.randint(0, IMG - h, (1,), generator=gen))
            images[i, 0, y0:y0 + h, x0:x0 + w] += 1.0
            boxes[i, j] = torch.tensor([x0 + w / 2, y0 + h / 2, w, h]) / IMG
    return images, boxes, counts


def inverse_sigmoid(x, eps=1e-4):
    x = x.clamp(min=eps, max=1 - eps)
    return torch.log(x / (1 - x))


class RefineLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.cross = nn.MultiheadAttention(DIM, 4, batch_first=True)
        self.norm = nn.LayerNorm(DIM)
        self.ffn = nn.Sequential(nn.Linear(DIM, 2 * DIM), nn.ReLU(), nn.Linear(2 * DIM, DIM))
        self.bbox = nn.Sequential(nn.Linear(DIM, DIM), nn.ReLU(), nn.Linear(DIM, 4))

    def forward(self, hs, memory, reference):
        hs = self.norm(hs + self.cross(hs, memory, memory, need_weights=False)[0])
        hs = hs + self.ffn(hs)
        tmp = self.bbox(hs)
        tmp[..., :2] += inverse_sigmoid(reference)[..., :2]
        return hs, tmp.sigmoid()


class TinyDETR(nn.Module):
    def __init__(self, layers=2):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, DIM, 3, 2, 1), nn.GroupNorm(4, DIM), nn.ReLU(inplace=True),
            nn.Conv2d(DIM, DIM, 3, 2, 1), nn.GroupNorm(4, DIM), nn.ReLU(inplace=True))
        self.pos = nn.Parameter(0.02 * torch.randn((IMG // 4) ** 2, DIM))
        self.query = nn.Parameter(torch.randn(QUERIES, DIM))
        self.ref = nn.Linear(DIM, 4)
        self.layers = nn.ModuleList(RefineLayer() for _ in range(layers))
        self.cls = nn.Linear(DIM, 1)

    def forward(self, images):
        memory = self.backbone(images).flatten(2).transpose(1, 2) + self.pos
        hs = self.query.unsqueeze(0).expand(images.size(0), -1, -1)
        reference = self.ref(hs).sigmoid()
        outputs = []
        for layer in self.layers:
            hs, boxes = layer(hs, memory, reference)
            outputs.append((self.cls(hs).squeeze(-1), boxes))
            reference = boxes.detach()
        return outputs


@torch.no_grad()
def greedy_match(boxes, gt, count):
    """Assign each ground-truth box to the free query with the lowest L1 cost."""
    cost = torch.cdist(gt[:count], boxes, p=1)          # (count, Q)
    taken = []
    for j in range(count):
        q = int(cost[j].argmin())
        taken.append(q)
        cost[:, q] = float("inf")
    return torch.tensor(taken)


def detr_loss(outputs, gt, counts):
    total = 0.0
    for logits, boxes in outputs:
        cls_target = torch.zeros_like(logits)
        box_l = 0.0
        for i in range(boxes.size(0)):
            n = int(counts[i])
            q = greedy_match(boxes[i], gt[i], n)
            cls_target[i, q] = 1.0
            box_l = box_l + F.l1_loss(boxes[i, q], gt[i, :n], reduction="sum")
        total = total + F.binary_cross_entropy_with_logits(logits, cls_target) \
            + 5.0 * box_l / counts.sum()
    return total


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    model = TinyDETR()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    for step in range(6):
        images, gt, counts = scenes(8, gen)
        loss = detr_loss(model(images), gt, counts)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.6f}")
    print(f"checksum {sum(p.double().sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
