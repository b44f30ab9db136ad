"""Two-network semi-supervised segmentation (cross pseudo-supervision), after the blog post
in which a user's edit put both networks' forward passes under torch.no_grad() together
with the pseudo-labels: "element 0 of tensors does not require grad".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
CLASSES, LABELED = 3, 4


def segnet(width):
    return nn.Sequential(nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
                         nn.Conv2d(width, CLASSES, 1))


model_vnet, model_resnet = segnet(8), segnet(12)
optimizer_v = torch.optim.SGD(model_vnet.parameters(), lr=0.05, momentum=0.9)
optimizer_r = torch.optim.SGD(model_resnet.parameters(), lr=0.05, momentum=0.9)

for iteration in range(4):
    images = torch.randn(2 * LABELED, 1, 16, 16)  # labeled first, then unlabeled
    labels = (images[:LABELED, 0] > 0).long() + (images[:LABELED, 0] > 1).long()

    with torch.no_grad():
        v_outputs = model_vnet(images)
        r_outputs = model_resnet(images)
        plab_v = v_outputs[LABELED:].argmax(dim=1)
        plab_r = r_outputs[LABELED:].argmax(dim=1)

    v_loss_seg = F.cross_entropy(v_outputs[:LABELED], labels)
    r_loss_seg = F.cross_entropy(r_outputs[:LABELED], labels)
    v_loss_cps = F.cross_entropy(v_outputs[LABELED:], plab_r)
    r_loss_cps = F.cross_entropy(r_outputs[LABELED:], plab_v)
    loss = v_loss_seg + r_loss_seg + 0.5 * (v_loss_cps + r_loss_cps)

    optimizer_v.zero_grad()
    optimizer_r.zero_grad()
    loss.backward()
    optimizer_v.step()
    optimizer_r.step()
    print(f"iteration {iteration}: loss {loss.item():.4f}")
