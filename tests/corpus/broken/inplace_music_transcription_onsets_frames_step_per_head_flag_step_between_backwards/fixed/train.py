"""Piano transcription on synthetic recordings: piano rolls are rendered to log-mel frames
through fixed harmonic templates, and an Onsets-and-Frames model (model.py) learns to recover
note onsets and sustained frames. Options come from the command line (see args)."""
import argparse
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from model import OnsetsAndFrames

N_MELS, N_PITCHES, T = 24, 12, 40


@dataclass
class TrainConfig:
    lr: float = 2e-3
    epochs: int = 2
    batches: int = 3
    step_per_head: bool = False


def synth_batch(templates, batch_size, gen):
    onsets = (torch.rand(batch_size, T, N_PITCHES, generator=gen) < 0.04).float()
    frames = torch.zeros_like(onsets)
    for t in range(T):
        frames[:, t] = torch.maximum(onsets[:, t], frames[:, t - 1] * 0.85 if t else frames[:, t])
    frames = (frames > 0.3).float()
    energy = frames @ templates.t() + 0.5 * onsets @ templates.t().abs()
    mel = torch.log1p(energy + 0.05 * torch.rand(batch_size, T, N_MELS, generator=gen))
    return mel.transpose(1, 2), onsets, frames


class Trainer:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    def train_step(self, mel, onsets, frames):
        targets = {"onset": onsets, "frame": frames}
        if self.cfg.step_per_head:
            # one update per head, so the sparse onset loss is not drowned by the frame loss;
            # each head's loss is computed on a fresh forward with the current weights
            losses = {}
            for name, target in targets.items():
                out = self.model(mel)
                loss = F.binary_cross_entropy_with_logits(out[name], target)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                losses[name] = loss
        else:
            out = self.model(mel)
            losses = {name: F.binary_cross_entropy_with_logits(out[name], target)
                      for name, target in targets.items()}
            self.optimizer.zero_grad()
            sum(losses.values()).backward()
            self.optimizer.step()
        return {name: loss.item() for name, loss in losses.items()}

    def fit(self, templates, gen):
        for epoch in range(self.cfg.epochs):
            for _ in range(self.cfg.batches):
                logs = self.train_step(*synth_batch(templates, 8, gen))
            print(f"epoch {epoch} onset {logs['onset']:.4f} frame {logs['frame']:.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--step-per-head", action="store_true")
    parser.add_argument("--lr", type=float, default=2e-3)
    args = parser.parse_args()
    cfg = TrainConfig(lr=args.lr, step_per_head=args.step_per_head)
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    templates = torch.rand(N_MELS, N_PITCHES, generator=gen) ** 4
    Trainer(OnsetsAndFrames(N_MELS, N_PITCHES), cfg).fit(templates, gen)


if __name__ == "__main__":
    main()
