"""Adversarial unsupervised domain adaptation for an 8x8 bar-orientation classifier: labelled
source images (bright bars on dark) and unlabelled target images (inverted contrast, shifted
brightness). A domain critic learns to tell the domains apart from the encoder features;
the encoder is trained to classify the source and to make target features look like source
features to the critic."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE = 8


def bars(n, gen):
    labels = torch.randint(0, 2, (n,), generator=gen)
    pos = torch.randint(1, SIZE - 1, (n,), generator=gen)
    img = torch.zeros(n, 1, SIZE, SIZE)
    for k in range(n):
        if labels[k] == 0:
            img[k, 0, pos[k], :] = 1.0
        else:
            img[k, 0, :, pos[k]] = 1.0
    return img + 0.1 * torch.randn(img.shape, generator=gen), labels


def target_domain(n, gen):
    img, _ = bars(n, gen)  # labels are not available in the target domain
    return 1.2 - img + 0.1 * torch.randn(img.shape, generator=gen)


def build_model(width=16):
    return nn.ModuleDict({
        "encoder": nn.Sequential(nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(2), nn.Flatten()),
        "classifier": nn.Linear(4 * width, 2),
        "critic": nn.Sequential(nn.Linear(4 * width, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1)),
    })


def main(steps=4, batch=16, adv_weight=0.3):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    nets = build_model()
    opt_main = torch.optim.Adam(list(nets["encoder"].parameters())
                                + list(nets["classifier"].parameters()), lr=2e-3)
    opt_critic = torch.optim.Adam(nets["critic"].parameters(), lr=2e-3)
    domain = torch.cat([torch.ones(batch, 1), torch.zeros(batch, 1)])

    for step in range(steps):
        xs, ys = bars(batch, gen)
        xt = target_domain(batch, gen)
        feats = nets["encoder"](torch.cat([xs, xt]))

        critic_loss = F.binary_cross_entropy_with_logits(nets["critic"](feats.detach()), domain)
        opt_critic.zero_grad()
        critic_loss.backward()
        opt_critic.step()

        cls_loss = F.cross_entropy(nets["classifier"](feats[:batch]), ys)
        confusion = F.binary_cross_entropy_with_logits(nets["critic"](feats[batch:]),
                                                       torch.ones(batch, 1))
        loss = cls_loss + adv_weight * confusion
        opt_main.zero_grad()
        loss.backward()
        opt_main.step()
        print(f"step {step} critic {critic_loss.item():.4f} cls {cls_loss.item():.4f} "
              f"confusion {confusion.item():.4f}")
    return nets


if __name__ == "__main__":
    main()
