"""A very small Lightning-style training framework used by the lab's sequence models.

A module implements training_step(batch, batch_idx, hiddens) and configure_optimizers(); when
truncated_bptt_steps is set, the Trainer splits every batch along time and hands the
"hiddens" returned by one split to the training_step of the next split.
"""
import torch.nn as nn


class LitModule(nn.Module):
    truncated_bptt_steps = 0

    def configure_optimizers(self):
        raise NotImplementedError

    def tbptt_split_batch(self, batch, split_size):
        x, y = batch
        return [(x[:, t:t + split_size], y) for t in range(0, x.size(1), split_size)]


class Trainer:
    def __init__(self, max_epochs=1, log_every=1):
        self.max_epochs = max_epochs
        self.log_every = log_every
        self.global_step = 0

    def fit(self, module, batches):
        optimizer = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            for batch_idx, batch in enumerate(batches):
                splits = [batch]
                if module.truncated_bptt_steps > 0:
                    splits = module.tbptt_split_batch(batch, module.truncated_bptt_steps)
                hiddens = None
                for split_idx, split in enumerate(splits):
                    out = module.training_step(split, batch_idx, hiddens)
                    loss = out["loss"]
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                    hiddens = out["hiddens"]
                    self.global_step += 1
                    if self.global_step % self.log_every == 0:
                        print(f"epoch {epoch} batch {batch_idx} split {split_idx} "
                              f"loss {loss.item():.4f}")
