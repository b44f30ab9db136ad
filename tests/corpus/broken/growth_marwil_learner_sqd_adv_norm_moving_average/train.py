"""Offline RL with MARWIL (advantage-weighted behaviour cloning) on logged transitions of
a small discrete-action task. As in RLlib's MARWIL learner, advantages are normalised by
a moving average of their squared norm kept on the learner."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
OBS_DIM, N_ACTIONS, BATCH = 6, 3, 64


class MARWILLearner:
    def __init__(self, beta=1.0, vf_coeff=1.0, ma_rate=0.1, lr=3e-3):
        self.policy = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.Tanh(), nn.Linear(32, N_ACTIONS))
        self.value = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.Tanh(), nn.Linear(32, 1))
        self.optimizer = torch.optim.Adam(
            [*self.policy.parameters(), *self.value.parameters()], lr=lr)
        self.beta, self.vf_coeff, self.ma_rate = beta, vf_coeff, ma_rate
        self.ma_sqd_adv_norm = torch.tensor(100.0)

    def update(self, obs, actions, returns):
        adv = returns - self.value(obs).squeeze(-1)
        self.ma_sqd_adv_norm += self.ma_rate * (adv.pow(2).mean() - self.ma_sqd_adv_norm)
        weights = torch.exp(self.beta * adv / (1e-8 + self.ma_sqd_adv_norm.sqrt())).detach()
        log_probs = Categorical(logits=self.policy(obs)).log_prob(actions)
        policy_loss = -(weights * log_probs).mean()
        value_loss = 0.5 * adv.pow(2).mean()
        loss = policy_loss + self.vf_coeff * value_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return policy_loss.item(), value_loss.item()


def logged_batch():
    """Transitions from a noisy behaviour policy; the best action is the argmax of the
    first three observation features, and it pays 1 (plus noise)."""
    obs = torch.randn(BATCH, OBS_DIM)
    best = obs[:, :N_ACTIONS].argmax(dim=1)
    noisy = torch.randint(0, N_ACTIONS, (BATCH,))
    actions = torch.where(torch.rand(BATCH) < 0.6, best, noisy)
    returns = (actions == best).float() + 0.1 * torch.randn(BATCH)
    return obs, actions, returns


learner = MARWILLearner()
for it in range(6):
    pl, vl = learner.update(*logged_batch())
    print(f"iter {it} policy loss {pl:.4f} value loss {vl:.4f} "
          f"adv norm {learner.ma_sqd_adv_norm.item():.3f}")
