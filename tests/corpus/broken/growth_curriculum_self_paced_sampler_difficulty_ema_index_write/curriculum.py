"""Self-paced curriculum: every training example carries an exponential moving average of
its loss; each epoch the sampler admits the easiest fraction of the data, a fraction that
grows linearly until the whole set is in play."""
import torch


class SelfPacedSampler:
    def __init__(self, n_examples, start=0.4, epochs_to_full=3, momentum=0.7):
        self.difficulty = torch.zeros(n_examples)
        self.seen = torch.zeros(n_examples, dtype=torch.bool)
        self.start = start
        self.epochs_to_full = epochs_to_full
        self.momentum = momentum

    def update(self, idx, losses):
        fresh = ~self.seen[idx]
        smoothed = self.momentum * self.difficulty[idx] + (1 - self.momentum) * losses
        self.difficulty[idx] = torch.where(fresh, losses, smoothed)
        self.seen[idx] = True

    def epoch_indices(self, epoch, batch_size, generator):
        frac = min(1.0, self.start + (1 - self.start) * epoch / self.epochs_to_full)
        n_keep = max(batch_size, int(frac * len(self.difficulty)))
        # unseen examples count as easy so that everything gets scored once
        score = torch.where(self.seen, self.difficulty, torch.zeros_like(self.difficulty))
        easiest = torch.argsort(score)[:n_keep]
        easiest = easiest[torch.randperm(n_keep, generator=generator)]
        return easiest.split(batch_size)
