"""Episodic training of a prototypical classifier on synthetic 10x10 glyph classes, with
the pretrained stem frozen (FewShotConfig.freeze_stem) and a monitor hook on the head."""
import torch
import torch.nn.functional as F

from fewshot import FewShotConfig, ProtoClassifier, trainable_parameters

N_CLASSES, SIDE, EPISODES = 10, 10, 6


def episode(templates, cfg, generator):
    classes = torch.randperm(N_CLASSES, generator=generator)[:cfg.way]
    n_per = cfg.shot + cfg.query
    labels = torch.empty(cfg.way * n_per, dtype=torch.long)
    for k in range(cfg.way):
        labels[k * n_per:(k + 1) * n_per] = k
    images = templates[classes[labels]] + 0.35 * torch.randn(labels.size(0), 1, SIDE, SIDE,
                                                             generator=generator)
    is_support = (torch.arange(labels.size(0)) % n_per) < cfg.shot
    return images[is_support], labels[is_support], images[~is_support], labels[~is_support]


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(29)
    cfg = FewShotConfig()
    templates = (torch.rand(N_CLASSES, 1, SIDE, SIDE, generator=generator) < 0.3).float()
    model = ProtoClassifier(cfg)
    head_norms = []
    model.head.register_forward_hook(
        lambda module, inputs, output: head_norms.append(output.detach().norm(dim=1).mean().item()))
    optimizer = torch.optim.Adam(trainable_parameters(model), lr=cfg.lr)
    for step in range(EPISODES):
        support, support_labels, query, query_labels = episode(templates, cfg, generator)
        logits = model(support, support_labels, query)
        loss = F.cross_entropy(logits, query_labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            acc = (logits.argmax(dim=1) == query_labels).float().mean().item()
        print(f"episode {step} loss {loss.item():.4f} acc {acc:.2f} "
              f"tau {model.log_tau.exp().item():.3f} head-norm {head_norms[-1]:.3f}")
    checksum = sum(p.detach().abs().sum().item() for p in trainable_parameters(model))
    print(f"trainable checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
