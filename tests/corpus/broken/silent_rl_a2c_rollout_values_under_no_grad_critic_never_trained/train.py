"""A2C on a batch of short corridors: the agent should learn to walk right to the goal."""
import torch

from agent import A2CAgent
from env import Corridors

torch.manual_seed(0)
env = Corridors(n_envs=16, length=5)
agent = A2CAgent(obs_dim=5, n_actions=2)
obs = env.reset()
for it in range(6):
    obs, batch, last_value = agent.rollout(env, obs, horizon=8)
    actor_loss, critic_loss = agent.update(batch, last_value)
    print(f"iter {it} reward {batch['rewards'].sum(0).mean().item():.3f} "
          f"actor {actor_loss:.4f} critic {critic_loss:.4f}")
checksum = sum(p.sum().item() for p in [*agent.actor.parameters(), *agent.critic.parameters()])
print("checksum", round(checksum, 4))
