"""Fit a stack of planar flows to an unnormalised 2-D "ring" density by minimising the
reverse KL divergence, KL(q || p), with samples from the flow itself."""
import torch

from flows import PlanarFlowStack, standard_normal_log_prob


def ring_log_density(z, radius=2.0, width=0.4):
    r = z.norm(dim=1)
    return -0.5 * ((r - radius) / width) ** 2


def main(steps=6, batch=256):
    torch.manual_seed(0)
    flow = PlanarFlowStack(dim=2, n_layers=8)
    optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)

    def reverse_kl():
        z0 = torch.randn(batch, 2)
        zk, log_det = flow(z0)
        log_q = standard_normal_log_prob(z0) - log_det
        return (log_q - ring_log_density(zk)).mean()

    for step in range(steps):
        loss = reverse_kl()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} reverse KL (up to log Z) {loss.item():.4f}")
    return loss.item()


if __name__ == "__main__":
    main()
