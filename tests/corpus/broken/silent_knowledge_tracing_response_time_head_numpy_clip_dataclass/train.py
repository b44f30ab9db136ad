"""Knowledge tracing with an auxiliary response-time head: a GRU reads a student's
(skill, correct) interactions and predicts, for the next question, both whether it will be
answered correctly and how long it will take (log seconds). Predicted times are clipped to
a plausible range before the loss. Settings and batches are dataclasses."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_skills: int = 5
    hidden: int = 24
    batch: int = 8
    seq_len: int = 10
    steps: int = 6
    rt_weight: float = 0.3
    log_rt_min: float = 0.0
    log_rt_max: float = 5.0
    lr: float = 1e-2


@dataclass
class InteractionBatch:
    skills: torch.Tensor
    correct: torch.Tensor
    log_rt: torch.Tensor


class TwoHeadTracer(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.n_skills = cfg.n_skills
        self.gru = nn.GRU(2 * cfg.n_skills, cfg.hidden, batch_first=True)
        self.correct_head = nn.Linear(cfg.hidden, cfg.n_skills)
        self.rt_head = nn.Linear(cfg.hidden, cfg.n_skills)

    def forward(self, skills, correct):
        x = F.one_hot(skills + self.n_skills * correct, 2 * self.n_skills).float()
        h, _ = self.gru(x)
        return self.correct_head(h), self.rt_head(h)


def sample_batch(cfg: Config) -> InteractionBatch:
    skills = torch.randint(0, cfg.n_skills, (cfg.batch, cfg.seq_len))
    difficulty = torch.linspace(-1, 1, cfg.n_skills)
    practice = F.one_hot(skills, cfg.n_skills).cumsum(1).gather(2, skills[..., None]).squeeze(2)
    p = torch.sigmoid(0.6 * practice - 1.5 * difficulty[skills])
    correct = (torch.rand(cfg.batch, cfg.seq_len) < p).long()
    log_rt = 2.5 + 0.8 * difficulty[skills] - 0.2 * correct + 0.1 * torch.randn(cfg.batch, cfg.seq_len)
    return InteractionBatch(skills, correct, log_rt)


def main(cfg=Config()):
    torch.manual_seed(0)
    model = TwoHeadTracer(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        batch = sample_batch(cfg)
        correct_logits, rt_pred = model(batch.skills[:, :-1], batch.correct[:, :-1])
        nxt = batch.skills[:, 1:, None]
        p_logit = correct_logits.gather(2, nxt).squeeze(2)
        rt_next = rt_pred.gather(2, nxt).squeeze(2)
        rt_next = torch.from_numpy(np.clip(rt_next.detach().numpy(), cfg.log_rt_min, cfg.log_rt_max))
        bce = F.binary_cross_entropy_with_logits(p_logit, batch.correct[:, 1:].float())
        rt_loss = F.mse_loss(rt_next, batch.log_rt[:, 1:])
        loss = bce + cfg.rt_weight * rt_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} bce {bce.item():.4f} rt mse {rt_loss.item():.4f}")
    return model


if __name__ == "__main__":
    main()
