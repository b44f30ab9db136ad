from dataclasses import dataclass, field


@dataclass
class RunStats:
    decay: float = 0.9
    steps: int = 0
    loss_ema: float = 0.0
    reward_ema: float = 0.0
    rewards: list = field(default_factory=list)

    def update(self, loss, mean_reward):
        self.steps += 1
        self.loss_ema = self.decay * self.loss_ema + (1 - self.decay) * loss.item()
        self.reward_ema = self.decay * self.reward_ema + (1 - self.decay) * mean_reward
        self.rewards.append(mean_reward)

    def summary(self):
        return f"step {self.steps} loss_ema {float(self.loss_ema):+.4f} reward_ema {self.reward_ema:.3f}"
