"""Few-shot regression with a task-conditioned hypernetwork.

A set encoder summarises the support set of each task into a task code, and a hypernetwork
turns the code into the weights of a linear readout over shared features. Each episode
then fine-tunes the whole system for a few steps on the support set (transductive
adaptation) before scoring the query set.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

FEAT, CODE, SUPPORT, QUERY, ADAPT_STEPS = 24, 8, 10, 10, 3


class FeatureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, FEAT), nn.Tanh())

    def forward(self, x):
        return self.body(x)


class SetEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(FEAT + 1, 32), nn.ReLU(), nn.Linear(32, CODE))

    def forward(self, feats, y):
        return self.phi(torch.cat([feats, y], dim=1)).mean(dim=0)


class HyperHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.to_weight = nn.Linear(CODE, FEAT)
        self.to_bias = nn.Linear(CODE, 1)

    def forward(self, code):
        return self.to_weight(code), self.to_bias(code)


def sample_task(gen):
    amp = torch.rand(1, generator=gen) * 2 + 0.5
    phase = torch.rand(1, generator=gen) * 3.14
    x = torch.rand(SUPPORT + QUERY, 1, generator=gen) * 8 - 4
    y = amp * torch.sin(x + phase)
    return (x[:SUPPORT], y[:SUPPORT]), (x[SUPPORT:], y[SUPPORT:])


def run_episode(features, set_encoder, hyper, optimizer, support, query):
    xs, ys = support
    code = set_encoder(features(xs), ys)
    head_w, head_b = hyper(code)

    def adapt_step():
        pred = features(xs) @ head_w.unsqueeze(1) + head_b
        loss = F.mse_loss(pred, ys)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()

    support_losses = [adapt_step() for _ in range(ADAPT_STEPS)]
    xq, yq = query
    with torch.no_grad():
        query_loss = F.mse_loss(features(xq) @ head_w.unsqueeze(1) + head_b, yq).item()
    return support_losses[-1], query_loss


def main(episodes=4):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    features, set_encoder, hyper = FeatureNet(), SetEncoder(), HyperHead()
    params = [*features.parameters(), *set_encoder.parameters(), *hyper.parameters()]
    optimizer = torch.optim.Adam(params, lr=3e-3)
    for ep in range(episodes):
        support, query = sample_task(gen)
        s_loss, q_loss = run_episode(features, set_encoder, hyper, optimizer, support, query)
        print(f"episode {ep} support {s_loss:.4f} query {q_loss:.4f}")
    return q_loss


if __name__ == "__main__":
    main()
