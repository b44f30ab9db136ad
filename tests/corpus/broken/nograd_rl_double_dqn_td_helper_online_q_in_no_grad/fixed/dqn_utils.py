"""Double-DQN helpers: epsilon-greedy action selection and the TD terms of a batch."""
import random

import torch


def epsilon_greedy(q_net, obs, epsilon, n_actions):
    if random.random() < epsilon:
        return random.randrange(n_actions)
    with torch.no_grad():
        return int(q_net(obs[None]).argmax(1))


def linear_epsilon(t, start=1.0, end=0.1, decay_steps=40):
    """Exploration rate annealed linearly from start to end over decay_steps."""
    return max(end, start - (start - end) * t / decay_steps)


def hard_update(target, online):
    """Copy the online weights into the frozen target network."""
    target.load_state_dict(online.state_dict())


def td_terms(online, target, batch, gamma):
    """Q(s, a) of the online net and the Double-DQN target r + gamma * Q_targ(s', argmax Q(s', .)).

    The online net picks the next action, the target net evaluates it; nothing of the
    target side must be backpropagated.
    """
    obs, actions, rewards, next_obs, dones = batch
    q_sa = online(obs).gather(1, actions[:, None]).squeeze(1)
    with torch.no_grad():
        next_actions = online(next_obs).argmax(1, keepdim=True)
        next_q = target(next_obs).gather(1, next_actions).squeeze(1)
        td_target = rewards + gamma * (1.0 - dones) * next_q
    return q_sa, td_target
