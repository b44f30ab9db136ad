import torch


def credit_batches(n_batches=4, batch=32, n_num=6, n_cat=3, seed=11):
    g = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(n_batches):
        num = torch.randn(batch, n_num, generator=g)
        cat = torch.randint(0, 5, (batch, n_cat), generator=g)
        score = num[:, 0] - 0.5 * num[:, 2] + 0.3 * (cat[:, 0] == 2).float()
        y = (score + 0.2 * torch.randn(batch, generator=g) > 0).float()
        batches.append((num, cat, y))
    return batches
