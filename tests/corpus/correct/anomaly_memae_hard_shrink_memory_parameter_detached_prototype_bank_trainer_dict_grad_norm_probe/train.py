"""Train MemAE on normal pump-sensor windows. The trainer keeps a bank of normal prototypes
(moved towards the detached latents after each step), logs how much each loss term pulls on
the encoder, and calibrates an anomaly threshold from the training reconstruction errors."""
import torch
import torch.nn.functional as F

from memae import MemAE

IN_DIM, LATENT, N_PROTO = 20, 10, 4


def normal_windows(n, gen):
    t = torch.linspace(0, 6.28, IN_DIM)
    phase = torch.rand(n, 1, generator=gen) * 6.28
    return torch.sin(t + phase) + 0.5 * torch.sin(2 * t) + 0.05 * torch.randn(n, IN_DIM,
                                                                                 generator=gen)


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        self.state = {"prototypes": torch.randn(N_PROTO, LATENT), "err_ema": None,
                      "grad_share": [], "errors": []}

    def step(self, x):
        recon, z, w = self.model(x)
        protos = self.state["prototypes"]
        nearest = torch.cdist(z, protos).argmin(dim=1)
        recon_loss = F.mse_loss(recon, x)
        compact = (z - protos[nearest]).pow(2).sum(1).mean()
        entropy = -(w * (w + 1e-12).log()).sum(1).mean()
        terms = {"recon": recon_loss, "compact": 0.05 * compact, "entropy": 0.01 * entropy}

        enc_params = list(self.model.encoder.parameters())
        norms = {}
        for name, term in terms.items():  # how hard each term pulls on the encoder
            grads = torch.autograd.grad(term, enc_params, retain_graph=True, allow_unused=True)
            norms[name] = sum(g.norm().item() for g in grads if g is not None)
        self.state["grad_share"].append(norms)

        loss = sum(terms.values())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

        with torch.no_grad():
            zd = z.detach()
            for k in range(N_PROTO):
                members = zd[nearest == k]
                if len(members):
                    protos[k].lerp_(members.mean(0), 0.3)
            err = (recon.detach() - x).pow(2).mean(1)
        self.state["errors"].append(err)
        e = err.mean().item()
        ema = self.state["err_ema"]
        self.state["err_ema"] = e if ema is None else 0.9 * ema + 0.1 * e
        return loss.item()

    @torch.no_grad()
    def score(self, x):
        recon, _, _ = self.model(x)
        return (recon - x).pow(2).mean(1)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(13)
    trainer = Trainer(MemAE(IN_DIM, LATENT))
    for epoch in range(2):
        for b in range(3):
            loss = trainer.step(normal_windows(16, gen))
            share = trainer.state["grad_share"][-1]
            print(f"epoch {epoch} batch {b} loss {loss:.4f} "
                  f"enc-grad recon {share['recon']:.4f} compact {share['compact']:.4f}")
    errors = torch.cat(trainer.state["errors"])
    threshold = errors.quantile(0.95).item()
    test = normal_windows(4, gen)
    test[2:, 4:10] += 3.0  # a stuck-sensor fault on the last two windows
    flags = (trainer.score(test) > threshold).tolist()
    print(f"threshold {threshold:.4f} err ema {trainer.state['err_ema']:.4f} flags {flags}")


if __name__ == "__main__":
    main()
