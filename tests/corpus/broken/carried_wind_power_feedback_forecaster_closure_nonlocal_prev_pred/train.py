# Wind-farm power nowcaster: the model sees the current met-mast readings
# plus its own forecast for the previous 10-minute slot ("feedback input").
# The training step is built once as a closure that remembers the previous
# forecast between calls.
import torch
import torch.nn as nn


def build_model(n_met=6, hidden=24):
    return nn.Sequential(nn.Linear(n_met + 1, hidden), nn.SiLU(), nn.Linear(hidden, 1))


def make_train_step(model, opt, batch):
    prev_pred = torch.zeros(batch, 1)
    crit = nn.HuberLoss(delta=0.5)

    def train_step(met, power):
        nonlocal prev_pred
        pred = model(torch.cat([met, prev_pred], dim=1))
        loss = crit(pred, power)
        opt.zero_grad()
        loss.backward()
        opt.step()
        prev_pred = pred
        return loss.item()

    return train_step


def met_stream(n_slots, batch, gen):
    speed = 8 + torch.randn(batch, 1, generator=gen)
    for _ in range(n_slots):
        speed = speed + 0.3 * torch.randn(batch, 1, generator=gen)
        met = torch.cat([speed, torch.randn(batch, 5, generator=gen)], dim=1)
        power = torch.clamp((speed - 3) / 9, 0, 1) ** 3
        yield met, power


def main():
    torch.manual_seed(4)
    gen = torch.Generator().manual_seed(4)
    model = build_model()
    opt = torch.optim.RMSprop(model.parameters(), lr=2e-3)
    step = make_train_step(model, opt, batch=16)
    for i, (met, power) in enumerate(met_stream(6, 16, gen)):
        print(f"slot {i} loss {step(met, power):.4f}")
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))


if __name__ == "__main__":
    main()
