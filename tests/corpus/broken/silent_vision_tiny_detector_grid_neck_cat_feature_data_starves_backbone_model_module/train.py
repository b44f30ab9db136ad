import torch
import torch.nn.functional as F

from model import TinyDetector


def toy_scene(n=8):
    """One bright square per image; targets on the 4x4 output grid."""
    img = 0.1 * torch.randn(n, 1, 16, 16)
    obj = torch.zeros(n, 4, 4)
    box = torch.zeros(n, 4, 4, 4)
    for i in range(n):
        cy, cx = torch.randint(0, 4, (2,)).tolist()
        img[i, 0, cy * 4:cy * 4 + 3, cx * 4:cx * 4 + 3] += 1.0
        obj[i, cy, cx] = 1.0
        box[i, :, cy, cx] = torch.tensor([0.375, 0.375, 0.75, 0.75])
    return img, obj, box


def detection_loss(obj_logit, box_pred, obj, box):
    l_obj = F.binary_cross_entropy_with_logits(obj_logit, obj)
    pos = obj.bool().unsqueeze(1).expand_as(box)
    l_box = F.smooth_l1_loss(box_pred[pos], box[pos])
    return l_obj + l_box


def main():
    torch.manual_seed(6)
    model = TinyDetector()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for it in range(6):
        img, obj, box = toy_scene()
        obj_logit, box_pred = model(img)
        loss = detection_loss(obj_logit, box_pred, obj, box)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} det loss {loss.item():.4f}")
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
