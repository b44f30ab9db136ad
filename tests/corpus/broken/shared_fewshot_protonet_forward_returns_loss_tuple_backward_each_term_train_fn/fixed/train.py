"""Episodic training of a prototypical network on synthetic few-shot tasks: each episode
draws N classes from a pool of Gaussian class centres, K support and Q query points each."""
import torch

from protonet import ProtoNet

N_POOL, IN_DIM, EMB_DIM = 12, 10, 8


def sample_episode(centres, n_way, k_shot, q_query):
    classes = torch.randperm(centres.shape[0])[:n_way]
    def draw(n):
        x = centres[classes].repeat_interleave(n, 0) + 0.6 * torch.randn(n_way * n, IN_DIM)
        return x, torch.arange(n_way).repeat_interleave(n)
    return draw(k_shot) + draw(q_query)


def train(model, centres, episodes=6, n_way=4, k_shot=3, q_query=5):
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for episode in range(episodes):
        support, support_y, query, query_y = sample_episode(centres, n_way, k_shot, q_query)
        losses, acc = model(support, support_y, query, query_y, n_way)
        optimizer.zero_grad()
        sum(losses).backward()
        optimizer.step()
        query_loss, sep_loss = (t.item() for t in losses)
        print(f"episode {episode} query {query_loss:.4f} sep {sep_loss:.4f} acc {acc.item():.2f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(ProtoNet(IN_DIM, EMB_DIM), torch.randn(N_POOL, IN_DIM) * 2)
