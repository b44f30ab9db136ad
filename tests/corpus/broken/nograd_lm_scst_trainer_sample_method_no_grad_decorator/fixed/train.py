"""Self-critical sequence training (SCST) for a tiny GRU text generator: sample a sequence,
decode greedily as the baseline, and scale the sampled log-probabilities by the reward
difference. The reward counts distinct tokens and penalises immediate repeats. The model's
sample() serves both the sampled and the greedy rollouts."""
import torch
import torch.nn as nn

VOCAB, EMB, HID, MAX_LEN, BATCH, STEPS, BOS = 20, 16, 32, 8, 6, 5, 0


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.cell = nn.GRUCell(EMB, HID)
        self.out = nn.Linear(HID, VOCAB)
        self.init_h = nn.Linear(4, HID)

    def sample(self, context, greedy=False):
        h = torch.tanh(self.init_h(context))
        token = torch.full((context.size(0),), BOS, dtype=torch.long)
        tokens, log_probs = [], []
        for _ in range(MAX_LEN):
            h = self.cell(self.embed(token), h)
            dist = torch.distributions.Categorical(logits=self.out(h))
            token = dist.probs.argmax(-1) if greedy else dist.sample()
            tokens.append(token)
            log_probs.append(dist.log_prob(token))
        return torch.stack(tokens, 1), torch.stack(log_probs, 1)


def diversity_reward(tokens):
    distinct = torch.tensor([float(len(set(row.tolist()))) for row in tokens])
    repeats = (tokens[:, 1:] == tokens[:, :-1]).float().sum(1)
    return distinct - repeats


class SCSTTrainer:
    def __init__(self, model, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, context):
        sample_tokens, sample_logprobs = self.model.sample(context)
        with torch.no_grad():
            greedy_tokens, _ = self.model.sample(context, greedy=True)
        advantage = diversity_reward(sample_tokens) - diversity_reward(greedy_tokens)
        loss = -(advantage.unsqueeze(1) * sample_logprobs).sum(1).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), diversity_reward(sample_tokens).mean().item()


def main():
    torch.manual_seed(0)
    trainer = SCSTTrainer(Generator())
    for step in range(STEPS):
        loss, reward = trainer.step(torch.randn(BATCH, 4))
        print(f"step {step} scst_loss {loss:.4f} mean_reward {reward:.3f}")


if __name__ == "__main__":
    main()
