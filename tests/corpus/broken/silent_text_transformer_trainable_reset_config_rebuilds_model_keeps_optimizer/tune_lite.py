"""A very small stand-in for a hyperparameter-search runner with actor reuse: one Trainable
is set up once and re-configured with reset_config() for every trial."""


class Trainable:
    def __init__(self, config):
        self.config = dict(config)
        self.iteration = 0
        self.setup(self.config)

    def setup(self, config):
        raise NotImplementedError

    def step(self):
        raise NotImplementedError

    def reset_config(self, new_config):
        return False

    def train(self):
        result = self.step()
        self.iteration += 1
        return result


def run_sweep(trainable_cls, base_config, trials, iters_per_trial):
    actor = trainable_cls(base_config)
    results = []
    for overrides in trials:
        config = {**base_config, **overrides}
        if not actor.reset_config(config):
            actor = trainable_cls(config)
        last = None
        for _ in range(iters_per_trial):
            last = actor.train()
        results.append((overrides, last))
    return results
