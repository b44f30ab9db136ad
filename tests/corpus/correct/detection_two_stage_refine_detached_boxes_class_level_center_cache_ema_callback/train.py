"""Train the two-stage refiner on synthetic one-rectangle images; an EMA copy of the model,
updated by a callback after every optimizer step, is evaluated at the end of each epoch."""
import copy

import torch
import torch.nn.functional as F

from detector import TwoStageDetector, iou

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


class EMACallback:
    def __init__(self, model, decay=0.9):
        self.ema = copy.deepcopy(model).requires_grad_(False)
        self.decay = decay

    @torch.no_grad()
    def on_step_end(self, model):
        for e, p in zip(self.ema.parameters(), model.parameters()):
            e.mul_(self.decay).add_(p, alpha=1 - self.decay)

    @torch.no_grad()
    def on_epoch_end(self, epoch, images, gt):
        _, anchors, _, boxes2 = self.ema(images)
        best = iou(anchors[None], gt[:, None]).argmax(1)
        got = iou(boxes2[torch.arange(len(gt)), best], gt)
        print(f"epoch {epoch} ema refined IoU {got.mean().item():.4f}")


def losses(model, images, gt):
    logits, anchors, boxes1, boxes2 = model(images)
    with torch.no_grad():
        best = iou(anchors[None], gt[:, None]).argmax(1)
    rows = torch.arange(len(gt))
    obj = F.binary_cross_entropy_with_logits(logits, F.one_hot(best, logits.shape[1]).float())
    stage1 = F.smooth_l1_loss(boxes1[rows, best], gt)
    stage2 = F.smooth_l1_loss(boxes2[rows, best], gt)
    return obj, stage1, stage2


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    model = TwoStageDetector(img=IMG)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    ema_cb = EMACallback(model)
    batches = [make_batch(8, gen) for _ in range(3)]
    val = make_batch(8, gen)
    for epoch in range(2):
        for images, gt in batches:
            obj, stage1, stage2 = losses(model, images, gt)
            loss = obj + stage1 + stage2
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema_cb.on_step_end(model)
            print(f"obj {obj.item():.4f} stage1 {stage1.item():.4f} stage2 {stage2.item():.4f}")
        ema_cb.on_epoch_end(epoch, *val)
    print("anchor shapes", [round(v, 3) for v in model.anchors.log_wh.exp().flatten().tolist()])


if __name__ == "__main__":
    main()
