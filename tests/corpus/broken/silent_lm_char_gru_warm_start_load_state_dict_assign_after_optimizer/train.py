"""Domain-adapt the pretrained char-GRU to our meeting notes.

The run config, the optimizer and the schedule are set up first; then the public-corpus
checkpoint is loaded. assign=True keeps the checkpoint tensors instead of copying them into
freshly initialised ones (halves peak memory on the big config)."""
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from model import CharGRU, encode, pretrained_checkpoint

NOTES = ("action items. ship the parser by friday, review the budget.\n"
         "notes. the parser is late, budget review moved to monday.\n") * 4


@dataclass
class RunConfig:
    lr: float = 3e-3
    weight_decay: float = 0.01
    seq_len: int = 24
    batch: int = 8
    steps: int = 6


def batches(data, cfg, gen):
    starts = torch.randint(0, len(data) - cfg.seq_len - 1, (cfg.batch,), generator=gen)
    x = torch.stack([data[s:s + cfg.seq_len] for s in starts])
    y = torch.stack([data[s + 1:s + cfg.seq_len + 1] for s in starts])
    return x, y


def main():
    torch.manual_seed(0)
    cfg = RunConfig()
    data = encode(NOTES)
    model = CharGRU()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / 3))

    ckpt = torch.load(pretrained_checkpoint())
    model.load_state_dict(ckpt["model"], assign=True)
    print(f"warm start from step {ckpt['step']}")

    gen = torch.Generator().manual_seed(0)
    model.train()
    for step in range(cfg.steps):
        x, y = batches(data, cfg, gen)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        print(f"step {step} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.5f}")


if __name__ == "__main__":
    main()
