"""CTGAN-style synthesiser for a small mixed-type table (two numeric columns, one
categorical column with four levels), WGAN-GP critic, callbacks for logging.

As in CTGAN, the critic's gradient penalty is backpropagated first with retain_graph=True
(it shares the generator's output graph with the critic loss), then the critic loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NUM, N_CAT, NOISE, BATCH, EPOCHS, STEPS_PER_EPOCH = 2, 4, 8, 32, 2, 3


def sample_table(n):
    cat = torch.randint(0, N_CAT, (n,))
    income = 0.3 * cat.float() - 0.4 + 0.1 * torch.randn(n)
    age = torch.tanh(0.5 * torch.randn(n))
    return torch.cat([torch.stack([income, age], 1), F.one_hot(cat, N_CAT).float()], 1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(NOISE, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, N_NUM + N_CAT))

    def forward(self, z):
        raw = self.body(z)
        numeric = torch.tanh(raw[:, :N_NUM])
        categorical = F.gumbel_softmax(raw[:, N_NUM:], tau=0.2, hard=False)
        return torch.cat([numeric, categorical], 1)


def gradient_penalty(critic, real, fake, lam=10.0):
    alpha = torch.rand(real.shape[0], 1)
    interp = alpha * real + (1 - alpha) * fake
    grad = torch.autograd.grad(critic(interp), interp, grad_outputs=torch.ones(real.shape[0], 1),
                               create_graph=True, retain_graph=True)[0]
    return lam * ((grad.norm(2, dim=1) - 1) ** 2).mean()


class LossHistory:
    def __init__(self):
        self.rows = []

    def on_step_end(self, epoch, step, logs):
        self.rows.append(logs)


class PrintProgress:
    def on_step_end(self, epoch, step, logs):
        print(f"epoch {epoch} step {step} " + " ".join(f"{k} {v:.4f}" for k, v in logs.items()))


def fit(callbacks):
    torch.manual_seed(31)
    gen = Generator()
    critic = nn.Sequential(nn.Linear(N_NUM + N_CAT, 64), nn.LeakyReLU(0.2), nn.Dropout(0.1),
                           nn.Linear(64, 1, bias=False))  # a bias cancels in the Wasserstein difference
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.9), weight_decay=1e-6)
    opt_d = torch.optim.Adam(critic.parameters(), lr=2e-4, betas=(0.5, 0.9))
    for epoch in range(EPOCHS):
        for step in range(STEPS_PER_EPOCH):
            real = sample_table(BATCH)
            fake = gen(torch.randn(BATCH, NOISE))
            y_fake, y_real = critic(fake), critic(real)
            pen = gradient_penalty(critic, real, fake)
            loss_d = -(y_real.mean() - y_fake.mean())
            opt_d.zero_grad()
            pen.backward(retain_graph=True)
            loss_d.backward()
            opt_d.step()

            fake = gen(torch.randn(BATCH, NOISE))
            loss_g = -critic(fake).mean()
            opt_g.zero_grad()
            loss_g.backward()
            opt_g.step()
            logs = {"loss_d": loss_d.item(), "penalty": pen.item(), "loss_g": loss_g.item()}
            for cb in callbacks:
                cb.on_step_end(epoch, step, logs)
    return gen, critic


if __name__ == "__main__":
    history = LossHistory()
    gen, critic = fit([history, PrintProgress()])
    gen.eval()
    with torch.no_grad():
        synth = gen(torch.randn(200, NOISE))
    print(f"steps {len(history.rows)} category freq {synth[:, N_NUM:].argmax(1).bincount(minlength=N_CAT).tolist()}")
    print(f"checksum {sum(p.sum().item() for m in (gen, critic) for p in m.parameters()):.4f}")
