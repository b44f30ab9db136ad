"""Dreamer-style agent on a toy point-mass task: learn a world model, train the actor in imagination."""
import torch
import torch.nn as nn

from world_model import WorldModel, imagine_return

OBS, ACT, LATENT = 4, 2, 16
T, B, HORIZON = 6, 8, 5


def collect_episode_chunk():
    pos = torch.randn(B, 2)
    vel = torch.zeros(B, 2)
    obs, acts, rews = [], [], []
    for _ in range(T):
        a = torch.rand(B, ACT) * 2 - 1
        obs.append(torch.cat([pos, vel], -1))
        vel = 0.9 * vel + 0.1 * a
        pos = pos + vel
        acts.append(a)
        rews.append(-pos.norm(dim=-1, keepdim=True))
    obs.append(torch.cat([pos, vel], -1))
    return torch.stack(obs), torch.stack(acts), torch.stack(rews)


def main():
    torch.manual_seed(11)
    wm = WorldModel(OBS, ACT, LATENT)
    actor = nn.Sequential(nn.Linear(LATENT, 32), nn.ELU(), nn.Linear(32, ACT), nn.Tanh())
    model_opt = torch.optim.Adam(wm.parameters(), lr=3e-3)
    actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)

    for it in range(5):
        obs, acts, rews = collect_episode_chunk()
        model_loss, z = wm.loss(obs, acts, rews)

        model_opt.zero_grad()
        model_loss.backward()
        model_opt.step()

        start = z.flatten(0, 1).detach()
        actor_loss = -imagine_return(wm, actor, start, HORIZON, gamma=0.95).mean()

        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
        print(f"iter {it}: model_loss={model_loss.item():.4f} actor_loss={actor_loss.item():.4f}")


if __name__ == "__main__":
    main()
