"""Order-quantity network for a convenience-store chain.

Instead of forecasting demand and ordering the forecast, the network maps the last
two weeks of sales plus calendar features straight to an order, and is trained on the
newsvendor cost of the order the supplier would actually ship (case packs only).
"""
from dataclasses import dataclass

import torch
import torch.nn as nn

from ordering import SupplierTerms, newsvendor_cost, round_to_pack

torch.manual_seed(11)


@dataclass
class Config:
    stores: int = 64
    history: int = 14
    epochs: int = 4
    batch: int = 16
    lr: float = 3e-3


class OrderNet(nn.Module):
    def __init__(self, history):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(history + 7, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, sales, weekday):
        x = torch.cat([sales / 20.0, weekday], dim=-1)
        return 20.0 * nn.functional.softplus(self.net(x)).squeeze(-1)


def simulate(cfg: Config):
    level = 5.0 + 25.0 * torch.rand(cfg.stores, 1)
    sales = (level + 3.0 * torch.randn(cfg.stores, cfg.history)).clamp(min=0.0)
    day = torch.randint(0, 7, (cfg.stores,))
    weekday = nn.functional.one_hot(day, 7).float()
    demand = (level.squeeze(-1) * (1.0 + 0.3 * (day >= 5).float())
              + 3.0 * torch.randn(cfg.stores)).clamp(min=0.0)
    return sales, weekday, demand


def main(cfg=Config(), terms=SupplierTerms()):
    model = OrderNet(cfg.history)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    sales, weekday, demand = simulate(cfg)
    for epoch in range(cfg.epochs):
        total = 0.0
        for s in range(0, cfg.stores, cfg.batch):
            qty = model(sales[s:s + cfg.batch], weekday[s:s + cfg.batch])
            order = round_to_pack(qty, terms)
            cost = newsvendor_cost(order, demand[s:s + cfg.batch], terms)
            optimizer.zero_grad()
            cost.backward()
            optimizer.step()
            total += cost.item()
        print(f"epoch {epoch} newsvendor cost {total / (cfg.stores // cfg.batch):.3f}")
    print("checksum", sum(p.sum().item() for p in model.parameters()))


if __name__ == "__main__":
    main()
