"""Min-max adversarial training against a learned attacker (ATN-style): the attacker
network perturbs each batch to maximise the classifier's loss, the classifier minimises the
same loss on the perturbed batch. Both players are updated on every batch."""
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from nets import Attacker, BarClassifier

torch.manual_seed(0)


@dataclass
class Config:
    eps: float = 0.2
    lr_classifier: float = 1e-2
    lr_attacker: float = 5e-3
    epochs: int = 2
    batch_size: int = 32


def bar_images(n):
    labels = torch.randint(0, 2, (n,))
    images = 0.1 * torch.rand(n, 1, 8, 8)
    rows = torch.randint(0, 8, (n,))
    for i in range(n):
        if labels[i] == 0:
            images[i, 0, rows[i], :] = 1.0
        else:
            images[i, 0, :, rows[i]] = 1.0
    return images, labels


def train(cfg):
    classifier, attacker = BarClassifier(), Attacker(cfg.eps)
    opt_c = torch.optim.SGD(classifier.parameters(), lr=cfg.lr_classifier, momentum=0.9)
    opt_a = torch.optim.Adam(attacker.parameters(), lr=cfg.lr_attacker)
    images, labels = bar_images(128)
    for epoch in range(cfg.epochs):
        for x, y in zip(images.split(cfg.batch_size), labels.split(cfg.batch_size)):
            x_adv = (x + attacker(x)).clamp(0.0, 1.0)
            cls_loss = F.cross_entropy(classifier(x_adv), y)

            opt_c.zero_grad()
            cls_loss.backward(retain_graph=True)  # the attacker's update reuses this graph
            opt_c.step()

            att_loss = -cls_loss
            opt_a.zero_grad()
            att_loss.backward()
            opt_a.step()
        print(f"epoch {epoch} classifier loss on attacked batch {cls_loss.item():.4f}")


train(Config())
