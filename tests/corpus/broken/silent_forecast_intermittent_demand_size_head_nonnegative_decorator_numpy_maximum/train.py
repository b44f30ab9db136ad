"""Train the intermittent-demand model on synthetic store-item series: sales happen on
about a third of the days (more at weekends), with Poisson sizes around an item level."""
import torch
import torch.nn.functional as F

from model import DemandNet

LOOKBACK, N_SERIES, DAYS, BATCH = 21, 32, 60, 16


def make_sales(generator):
    day = torch.arange(DAYS)
    weekend = (day % 7 >= 5).float()
    p_sale = 0.25 + 0.3 * weekend
    occurs = torch.rand(N_SERIES, DAYS, generator=generator) < p_sale
    level = 2.0 + 6.0 * torch.rand(N_SERIES, 1, generator=generator)
    sizes = torch.poisson(level.expand(-1, DAYS), generator=generator) + 1.0
    return occurs.float() * sizes, day


def windows(sales, day, start):
    dow = F.one_hot((day[start:start + LOOKBACK] % 7), 7).float()
    history = sales[:, start:start + LOOKBACK, None] / 10.0
    features = torch.cat([history, dow.expand(sales.size(0), -1, -1)], dim=-1)
    return features, sales[:, start + LOOKBACK]


def train(model, optimizer, sales, day, epochs=2, starts=(0, 14)):
    for epoch in range(epochs):
        for start in starts:
            features, target = windows(sales, day, start)
            for idx in torch.arange(N_SERIES).split(BATCH):
                occ_logit, size = model(features[idx])
                y = target[idx]
                sold = y > 0
                occ_loss = F.binary_cross_entropy_with_logits(occ_logit, sold.float())
                size_loss = F.mse_loss(size[sold], y[sold] / 10.0)
                loss = occ_loss + size_loss
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        print(f"epoch {epoch} occurrence {occ_loss.item():.4f} size {size_loss.item():.4f}")


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(13)
    sales, day = make_sales(generator)
    model = DemandNet(n_features=8)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train(model, optimizer, sales, day)
    features, target = windows(sales, day, DAYS - LOOKBACK - 1)
    with torch.no_grad():
        forecast = model.expected_demand(features) * 10.0
    print(f"holdout mae {(forecast - target).abs().mean().item():.3f}")


if __name__ == "__main__":
    main()
