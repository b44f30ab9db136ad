"""Over-smoothing diagnostics (Rusch, Bronstein & Mishra 2023, 'A Survey on Oversmoothing
in Graph Neural Networks')."""
import torch


def dirichlet_energy(h, edge_index, deg):
    """E(h) = 1/N * sum over edges (i, j) of || h_i / sqrt(1 + d_i) - h_j / sqrt(1 + d_j) ||^2"""
    src, dst = edge_index
    scaled = h / (1 + deg).sqrt().unsqueeze(1)
    return ((scaled[src] - scaled[dst]) ** 2).sum() / h.shape[0]


def smoothing_report(energy_log):
    first = energy_log["layer1"]
    parts = []
    for name, values in energy_log.items():
        ratio = float(values[-1]) / max(float(first[-1]), 1e-12)
        parts.append(f"{name} {ratio:.3f}")
    return " | ".join(parts)
