"""Running averages for the training log, shared by the project's training scripts."""


class MeterBank:
    """Weighted running averages of named values, reset at the start of every epoch."""

    def __init__(self):
        self.sums, self.counts = {}, {}

    def reset(self):
        self.sums.clear()
        self.counts.clear()

    def update(self, n=1, **values):
        for name, value in values.items():
            if hasattr(value, "item"):
                value = value.item()
            self.sums[name] = self.sums.get(name, 0.0) + value * n
            self.counts[name] = self.counts.get(name, 0) + n

    def average(self, name):
        return self.sums[name] / self.counts[name]

    def summary(self):
        return " ".join(f"{name} {float(self.average(name)):.4f}" for name in self.sums)
