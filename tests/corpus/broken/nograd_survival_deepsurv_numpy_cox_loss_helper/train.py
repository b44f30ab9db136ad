"""DeepSurv on a simulated cohort: 6 covariates, exponential event times whose hazard
depends non-linearly on two of them, and uniform censoring."""
import torch
import torch.nn as nn

from survival import concordance_index, cox_neg_log_likelihood


def simulate_cohort(n, gen):
    x = torch.randn(n, 6, generator=gen)
    log_hazard = 0.8 * x[:, 0] - 0.5 * x[:, 1] ** 2 + 0.3 * x[:, 2]
    event_time = -torch.log(torch.rand(n, generator=gen)) / log_hazard.exp()
    censor_time = torch.rand(n, generator=gen) * 3
    durations = torch.minimum(event_time, censor_time)
    events = (event_time <= censor_time).long()
    return x, durations, events


def main(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    x, durations, events = simulate_cohort(256, gen)
    model = nn.Sequential(nn.Linear(6, 32), nn.SELU(), nn.Dropout(0.1),
                          nn.Linear(32, 32), nn.SELU(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
    for step in range(steps):
        model.train()
        idx = torch.randperm(256, generator=gen)[:128]
        log_risk = model(x[idx]).squeeze(-1)
        loss = cox_neg_log_likelihood(log_risk, durations[idx], events[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.eval()
        with torch.no_grad():
            c_index = concordance_index(model(x).squeeze(-1), durations, events)
        print(f"step {step} cox nll {loss.item():.4f} c-index {c_index:.3f}")
    return model


if __name__ == "__main__":
    main()
