"""Train a tiny one-object-per-image detector on synthetic 16x16 images: each image holds
one bright rectangle, the detector predicts an objectness score and box offsets for each
anchor, and the anchor matching picks the anchor with the best IoU to the ground truth."""
import torch
import torch.nn.functional as F

from model import TinyDetector, box_iou_cxcywh, decode

IMG = 16


def make_batch(n, gen):
    images = 0.1 * torch.randn(n, 1, IMG, IMG, generator=gen)
    boxes = []
    for i in range(n):
        w, h = torch.randint(3, 8, (2,), generator=gen).tolist()
        x0 = torch.randint(0, IMG - w, (1,), generator=gen).item()
        y0 = torch.randint(0, IMG - h, (1,), generator=gen).item()
        images[i, 0, y0:y0 + h, x0:x0 + w] += 1.0
        boxes.append([x0 + w / 2, y0 + h / 2, float(w), float(h)])
    return images, torch.tensor(boxes)


def detection_loss(logits, deltas, anchors, gt):
    with torch.no_grad():
        ious = box_iou_cxcywh(anchors.detach()[None], gt[:, None])   # (N, H*W*A)
        best = ious.argmax(dim=1)
    obj_target = F.one_hot(best, logits.shape[1]).float()
    cls_loss = F.binary_cross_entropy_with_logits(logits, obj_target)
    rows = torch.arange(len(gt))
    pred_boxes = decode(deltas[rows, best], anchors[best])
    box_loss = F.smooth_l1_loss(pred_boxes, gt)
    return cls_loss, box_loss


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = TinyDetector()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    batches = [make_batch(8, gen) for _ in range(3)]
    for epoch in range(2):
        for images, gt in batches:
            logits, deltas, anchors = model(images)
            cls_loss, box_loss = detection_loss(logits, deltas, anchors, gt)
            loss = cls_loss + box_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} cls {cls_loss.item():.4f} box {box_loss.item():.4f}")
        shapes = model.anchor_gen.log_wh.exp().detach()
        print("anchor shapes", [tuple(round(v, 2) for v in s) for s in shapes.tolist()])


if __name__ == "__main__":
    main()
