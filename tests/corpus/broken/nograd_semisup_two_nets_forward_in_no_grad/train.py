"""Semi-supervised segmentation with two networks that pseudo-label each other's unlabeled
half of the batch (cross pseudo-supervision). Each batch: LABELED_BS labeled images first,
then unlabeled ones."""
import torch
import torch.nn.functional as F

from networks import ResNetSeg, VNetLite

torch.manual_seed(0)
NUM_CLASSES, BATCH, LABELED_BS, SIZE = 2, 4, 2, 16


def make_batch():
    volume = torch.rand(BATCH, 1, SIZE, SIZE)
    label = (volume[:, 0] > 0.5).long()
    return volume, label


def dice_loss(logits, target):
    probs = torch.softmax(logits, dim=1)[:, 1]
    fg = (target == 1).float()
    inter = (probs * fg).sum()
    return 1 - (2 * inter + 1e-5) / (probs.sum() + fg.sum() + 1e-5)


def seg_loss(logits, target):
    return 0.5 * (F.cross_entropy(logits, target) + dice_loss(logits, target))


model_vnet = VNetLite(1, NUM_CLASSES)
model_resnet = ResNetSeg(1, NUM_CLASSES)
optimizer_v = torch.optim.SGD(model_vnet.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
optimizer_r = torch.optim.SGD(model_resnet.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
loader = [make_batch() for _ in range(2)]
cps_weight = 0.1

iter_num = 0
for epoch in range(2):
    for volume_batch, label_batch in loader:
        with torch.no_grad():
            v_outputs = model_vnet(volume_batch)
            r_outputs = model_resnet(volume_batch)
            v_pseudo = torch.argmax(torch.softmax(v_outputs[LABELED_BS:], dim=1), dim=1)
            r_pseudo = torch.argmax(torch.softmax(r_outputs[LABELED_BS:], dim=1), dim=1)

        v_loss_sup = seg_loss(v_outputs[:LABELED_BS], label_batch[:LABELED_BS])
        r_loss_sup = seg_loss(r_outputs[:LABELED_BS], label_batch[:LABELED_BS])
        v_loss_cps = F.cross_entropy(v_outputs[LABELED_BS:], r_pseudo)
        r_loss_cps = F.cross_entropy(r_outputs[LABELED_BS:], v_pseudo)
        loss = v_loss_sup + r_loss_sup + cps_weight * (v_loss_cps + r_loss_cps)

        optimizer_v.zero_grad()
        optimizer_r.zero_grad()
        loss.backward()
        optimizer_v.step()
        optimizer_r.step()
        iter_num += 1
print(f"iteration {iter_num} loss {loss.item():.4f}")
