"""CTR prediction for a small catalogue: DeepFM over (user, item, hour) with the user/item/hour
embedding tables taken from a matrix-factorisation run and kept fixed, so only the
first-order weights and the deep part are trained on the click log."""
import numpy as np
import torch
import torch.nn.functional as F

from model import DeepFM, DeepFMConfig

torch.manual_seed(0)


def mf_tables(cfg):
    """Stand-in for the embedding tables exported by the matrix-factorisation stage."""
    gen = torch.Generator().manual_seed(7)
    return [0.3 * torch.randn(v, cfg.emb_dim, generator=gen) for v in cfg.vocab_sizes]


def click_log(n, tables, gen):
    users = torch.randint(0, 50, (n,), generator=gen)
    items = torch.randint(0, 40, (n,), generator=gen)
    hours = torch.randint(0, 24, (n,), generator=gen)
    affinity = (tables[0][users] * tables[1][items]).sum(1) * 4
    evening = ((hours >= 18) | (hours <= 1)).float()
    clicks = torch.bernoulli(torch.sigmoid(affinity + 0.8 * evening - 0.5), generator=gen)
    return torch.stack([users, items, hours], 1), clicks


def auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / max(n_pos * n_neg, 1)


def main():
    cfg = DeepFMConfig()
    tables = mf_tables(cfg)
    gen = torch.Generator().manual_seed(0)
    train_x, train_y = click_log(512, tables, gen)
    test_x, test_y = click_log(256, tables, gen)
    model = DeepFM(cfg, pretrained=tables)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(2):
        perm = torch.randperm(len(train_x))
        for i in range(0, len(train_x), 128):
            idx = perm[i:i + 128]
            logits = model(train_x[idx])
            loss = F.binary_cross_entropy_with_logits(logits, train_y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            test_auc = auc(model(test_x).numpy(), test_y.numpy())
        print(f"epoch {epoch} logloss {loss.item():.4f} test auc {test_auc:.3f}")


if __name__ == "__main__":
    main()
