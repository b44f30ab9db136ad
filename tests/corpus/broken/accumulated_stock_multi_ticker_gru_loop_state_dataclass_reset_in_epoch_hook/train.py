"""Next-day log-return forecasting for a handful of tickers with one shared GRU and a ticker
embedding. Each optimizer step covers one block of trading days; the per-ticker losses of the
block are summed into the loop state and averaged for the update."""
from dataclasses import dataclass, field
from typing import List, Union

import torch
import torch.nn as nn
import torch.nn.functional as F

TICKERS = ["AAPL", "MSFT", "XOM", "JPM"]
LOOKBACK, FEATURES, DAYS_PER_BLOCK = 10, 3, 8


class ReturnForecaster(nn.Module):
    def __init__(self, n_tickers, hidden=24):
        super().__init__()
        self.ticker_emb = nn.Embedding(n_tickers, 8)
        self.gru = nn.GRU(FEATURES + 8, hidden, batch_first=True)
        self.head = nn.Sequential(nn.Linear(hidden, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, window, ticker_id):
        emb = self.ticker_emb(ticker_id).unsqueeze(1).expand(-1, window.size(1), -1)
        out, _ = self.gru(torch.cat([window, emb], dim=-1))
        return self.head(out[:, -1]).squeeze(-1)


@dataclass
class LoopState:
    epoch: int = 0
    step: int = 0
    ticker_loss: Union[float, torch.Tensor] = 0.0
    history: List[float] = field(default_factory=list)


def on_epoch_start(state):
    state.epoch += 1
    state.ticker_loss = 0.0


def simulate_prices(n_days, gen):
    """Log returns with a ticker-specific drift, a common market factor and volatility."""
    market = 0.01 * torch.randn(n_days, generator=gen)
    rets = []
    for i in range(len(TICKERS)):
        beta = 0.5 + 0.3 * i
        rets.append(0.0005 * i + beta * market + 0.005 * torch.randn(n_days, generator=gen))
    return torch.stack(rets)  # (tickers, days)


def blocks(returns):
    """Yield (ticker windows, next-day targets) per block of DAYS_PER_BLOCK days."""
    n_days = returns.size(1)
    for start in range(LOOKBACK, n_days - DAYS_PER_BLOCK, DAYS_PER_BLOCK):
        days = range(start, start + DAYS_PER_BLOCK)
        windows, targets = [], []
        for k in range(len(TICKERS)):
            r = returns[k]
            feats = [torch.stack([r[d - LOOKBACK:d], r[d - LOOKBACK:d].abs(),
                                  r[d - LOOKBACK:d].cumsum(0)], dim=-1) for d in days]
            windows.append(100 * torch.stack(feats))
            targets.append(100 * r[start:start + DAYS_PER_BLOCK])
        yield windows, targets


def main(epochs=2):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    returns = simulate_prices(LOOKBACK + 3 * DAYS_PER_BLOCK + 1, gen)
    model = ReturnForecaster(len(TICKERS))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    state = LoopState()
    for _ in range(epochs):
        on_epoch_start(state)
        for windows, targets in blocks(returns):
            for k in range(len(TICKERS)):
                ids = torch.full((DAYS_PER_BLOCK,), k, dtype=torch.long)
                pred = model(windows[k], ids)
                state.ticker_loss = state.ticker_loss + F.huber_loss(pred, targets[k])
            loss = state.ticker_loss / len(TICKERS)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            state.step += 1
            state.history.append(loss.item())
            print(f"epoch {state.epoch} step {state.step} huber {loss.item():.4f}")


if __name__ == "__main__":
    main()
