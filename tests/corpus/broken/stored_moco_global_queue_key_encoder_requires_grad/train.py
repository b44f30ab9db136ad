"""MoCo pretraining of a small MLP encoder on synthetic feature vectors: the query encoder is
trained with InfoNCE against the current key and a queue of earlier keys."""
import torch
import torch.nn as nn
import torch.nn.functional as F

import moco

IN_DIM, EMB_DIM, TEMPERATURE = 20, 8, 0.2


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.05 * torch.randn_like(x)


def main():
    torch.manual_seed(0)
    encoder_q = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, EMB_DIM))
    encoder_k = moco.make_key_encoder(encoder_q)
    optimizer = torch.optim.SGD(encoder_q.parameters(), lr=0.05, momentum=0.9)
    moco.init_queue(EMB_DIM)
    data = torch.randn(3, 16, IN_DIM)
    for step, x in enumerate(data):
        q = F.normalize(encoder_q(augment(x)), dim=1)
        k = moco.encode_keys(encoder_k, augment(x))
        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ moco.negatives().T
        logits = torch.cat([l_pos, l_neg], dim=1) / TEMPERATURE
        loss = F.cross_entropy(logits, torch.zeros(len(x), dtype=torch.long))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        moco.momentum_update(encoder_q, encoder_k)
        moco.enqueue(k)
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
