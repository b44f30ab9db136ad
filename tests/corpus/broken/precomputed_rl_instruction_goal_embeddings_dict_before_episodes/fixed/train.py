"""Instruction-following gridworld agent trained with REINFORCE. Each episode comes with a
short instruction ("go left", "go up", ...); a GRU instruction encoder, trained jointly with
the policy, turns it into a goal embedding. The embeddings of the fixed instruction set are
computed once, before the episode loop, to save time."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
WORDS = {"go": 0, "left": 1, "right": 2, "up": 3, "down": 4}
INSTRUCTIONS = ["go left", "go right", "go up", "go down"]
MOVES = torch.tensor([[-1, 0], [1, 0], [0, 1], [0, -1]], dtype=torch.float)
EMB, HID, HORIZON, EPISODES = 8, 16, 3, 6

word_embedding = nn.Embedding(len(WORDS), EMB)
instruction_encoder = nn.GRU(EMB, HID, batch_first=True)
policy = nn.Sequential(nn.Linear(2 + HID, 32), nn.Tanh(), nn.Linear(32, len(MOVES)))
optimizer = torch.optim.Adam([*word_embedding.parameters(), *instruction_encoder.parameters(),
                              *policy.parameters()], lr=1e-2)


def encode(instruction):
    ids = torch.tensor([[WORDS[w] for w in instruction.split()]])
    _, h_n = instruction_encoder(word_embedding(ids))
    return h_n[-1, 0]


for episode in range(EPISODES):
    instr = INSTRUCTIONS[(episode // 2) % len(INSTRUCTIONS)]
    target_dir = MOVES[INSTRUCTIONS.index(instr)]
    goal = encode(instr)
    pos = torch.zeros(2)
    log_probs, rewards = [], []
    for t in range(HORIZON):
        logits = policy(torch.cat([pos, goal]))
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        pos = pos + MOVES[action]
        log_probs.append(dist.log_prob(action))
        rewards.append(float(MOVES[action] @ target_dir))
    returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
    loss = -(torch.stack(log_probs) * (returns - returns.mean())).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"episode {episode} '{instr}' return {sum(rewards):+.1f} loss {loss.item():.4f}")
