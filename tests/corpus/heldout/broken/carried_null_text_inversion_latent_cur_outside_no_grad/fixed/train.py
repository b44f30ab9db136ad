"""Null-text inversion (Mokady et al.) for a toy text-conditioned latent denoiser: DDIM-invert
a latent, then optimise one unconditional embedding per timestep so that guided DDIM
sampling retraces the inversion trajectory."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LATENT, EMB, NUM_STEPS, INNER_STEPS, GUIDANCE = 8, 12, 4, 3, 3.0


class TinyDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LATENT + EMB + 1, 64), nn.SiLU(), nn.Linear(64, 64),
                                 nn.SiLU(), nn.Linear(64, LATENT))

    def forward(self, z, t, context):
        t_feat = torch.full((z.size(0), 1), float(t) / 1000.0)
        return self.net(torch.cat([z, context.expand(z.size(0), -1), t_feat], dim=1))


alphas_cumprod = torch.cumprod(1.0 - torch.linspace(1e-4, 0.02, 1000), dim=0)
timesteps = torch.linspace(999, 0, NUM_STEPS).long()


def ddim_step(z, eps, t_from, t_to):
    a_from, a_to = alphas_cumprod[t_from], alphas_cumprod[t_to]
    z0 = (z - (1 - a_from).sqrt() * eps) / a_from.sqrt()
    return a_to.sqrt() * z0 + (1 - a_to).sqrt() * eps


@torch.no_grad()
def ddim_invert(unet, z0, cond):
    trajectory = [z0]
    z = z0
    for t_to, t_from in zip(reversed(timesteps[:-1]), reversed(timesteps[1:])):
        z = ddim_step(z, unet(z, t_from, cond), t_from, t_to)
        trajectory.append(z)
    return trajectory


def guided_eps(unet, z, t, cond, uncond):
    eps_uncond = unet(z, t, uncond)
    with torch.no_grad():
        eps_cond = unet(z, t, cond)
    return eps_uncond + GUIDANCE * (eps_cond - eps_uncond)


def null_text_optimization(unet, trajectory, cond, uncond_init):
    uncond = uncond_init
    latent_cur = trajectory[-1]
    per_step = []
    for i in range(NUM_STEPS - 1):
        t, t_next = timesteps[i], timesteps[i + 1]
        target = trajectory[-i - 2]
        uncond = uncond.clone().detach().requires_grad_(True)
        optimizer = torch.optim.Adam([uncond], lr=1e-2 * (1.0 - i / 100.0))
        for j in range(INNER_STEPS):
            latent_prev_rec = ddim_step(latent_cur, guided_eps(unet, latent_cur, t, cond, uncond),
                                        t, t_next)
            loss = F.mse_loss(latent_prev_rec, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"timestep {int(t):4d} final loss {loss.item():.6f}")
        per_step.append(uncond.detach())
        with torch.no_grad():
            latent_cur = ddim_step(latent_cur, guided_eps(unet, latent_cur, t, cond, uncond),
                                   t, t_next)
    return per_step


torch.manual_seed(0)
unet = TinyDenoiser()
cond_emb, null_emb = torch.randn(1, EMB), torch.zeros(1, EMB)
z0 = torch.randn(2, LATENT)
traj = ddim_invert(unet, z0, cond_emb)
embeddings = null_text_optimization(unet, traj, cond_emb, null_emb)
print(f"optimised {len(embeddings)} null embeddings, norm {embeddings[-1].norm():.4f}")
