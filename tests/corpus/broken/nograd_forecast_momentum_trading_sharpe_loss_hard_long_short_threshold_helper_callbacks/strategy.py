"""Turn model signals into positions and score them like the backtester does."""
import torch


def positions(signal):
    """Long one unit when the signal is positive, short one unit otherwise."""
    position = (signal > 0).float() * 2.0 - 1.0
    return position


def sharpe_loss(signal, next_returns, cost=1e-4):
    """Negative Sharpe ratio of the strategy P&L over the batch, after a linear trading cost."""
    position = positions(signal)
    pnl = position * next_returns - cost * position.abs()
    return -pnl.mean() / (pnl.std() + 1e-8)
