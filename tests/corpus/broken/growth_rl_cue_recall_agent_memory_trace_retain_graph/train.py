"""Online actor-critic on a cue-recall bandit: every step the agent sees a noisy cue and pulls
one of three arms; the rewarding arm only changes every few steps, so the agent keeps a leaky
memory trace of its encoded observations on self between steps. retain_graph=True was added
to learn() when the second update raised "Trying to backward through the graph a second
time"."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_ARMS, OBS_DIM, TRACE_DIM, DECAY = 3, 6, 16, 0.85


class CueEnv:
    def __init__(self, switch_every=4):
        self.switch_every = switch_every
        self.t = 0
        self.good_arm = 0

    def observe(self):
        if self.t % self.switch_every == 0:
            self.good_arm = int(torch.randint(0, N_ARMS, ()))
        obs = 0.5 * torch.randn(1, OBS_DIM)
        obs[0, self.good_arm] += 1.0
        return obs

    def pull(self, arm):
        self.t += 1
        return 1.0 if arm == self.good_arm else 0.0


class TraceActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(OBS_DIM, TRACE_DIM)
        self.policy = nn.Linear(TRACE_DIM + OBS_DIM, N_ARMS)
        self.value = nn.Linear(TRACE_DIM + OBS_DIM, 1)

    def forward(self, obs, trace):
        trace = DECAY * trace + (1 - DECAY) * torch.tanh(self.encoder(obs))
        features = torch.cat([trace, obs], dim=-1)
        return self.policy(features), self.value(features).squeeze(-1), trace


class Agent:
    def __init__(self, net, lr=1e-2, value_coef=0.5):
        self.net = net
        self.value_coef = value_coef
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)
        self.trace = torch.zeros(1, TRACE_DIM)
        self.rewards = []

    def act(self, obs):
        logits, value, self.trace = self.net(obs, self.trace)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        return action, dist.log_prob(action), value

    def learn(self, log_prob, value, reward):
        advantage = reward - value.detach()
        loss = (-log_prob * advantage + self.value_coef * (value - reward) ** 2).mean()
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        self.rewards.append(reward)
        return loss.item()


env, agent = CueEnv(), Agent(TraceActorCritic())
for step in range(12):
    obs = env.observe()
    action, log_prob, value = agent.act(obs)
    reward = env.pull(int(action))
    loss = agent.learn(log_prob, value, reward)
    mean_reward = sum(agent.rewards) / len(agent.rewards)
    print(f"step {step} arm {int(action)} reward {reward:.0f} loss {loss:.4f} "
          f"mean reward {mean_reward:.3f}")
