"""Streaming session-based recommender (GRU4Rec-style, no BPTT): clicks from several open
sessions arrive interleaved; for each click the session's interest state is read from the
memory, advanced by a GRU cell on the clicked item, scored against all items (tied
embeddings) for the next click, and written back."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from session_memory import SessionMemory

N_ITEMS, DIM, LANES = 30, 16, 4


class SessionRecommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.cell = nn.GRUCell(DIM, DIM)
        self.item_bias = nn.Parameter(torch.zeros(N_ITEMS))

    def forward(self, item_ids, h_prev):
        h = self.cell(self.items(item_ids), h_prev)
        return h @ self.items.weight.t() + self.item_bias, h


def new_session(sid):
    return {"sid": sid, "item": int(torch.randint(N_ITEMS, ())), "left": int(torch.randint(3, 6, ()))}


def click_stream(n_steps):
    """Session-parallel stream: each lane plays sessions back to back; one click per lane per step."""
    lanes = [new_session(sid) for sid in range(LANES)]
    next_sid = LANES
    for _ in range(n_steps):
        sids, items, targets, ended = [], [], [], []
        for i, lane in enumerate(lanes):
            nxt = (lane["item"] + int(torch.randint(1, 3, ()))) % N_ITEMS
            sids.append(lane["sid"])
            items.append(lane["item"])
            targets.append(nxt)
            lane["item"], lane["left"] = nxt, lane["left"] - 1
            if lane["left"] == 0:
                ended.append(lane["sid"])
                lanes[i] = new_session(next_sid)
                next_sid += 1
        yield sids, torch.tensor(items), torch.tensor(targets), ended


def main():
    torch.manual_seed(0)
    model = SessionRecommender()
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.1)
    memory = SessionMemory(DIM)
    for step, (sids, items, targets, ended) in enumerate(click_stream(6)):
        logits, h = model(items, memory.read(sids))
        loss = F.cross_entropy(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        memory.write(sids, h)
        memory.close(ended)
        hit = (logits.topk(5, dim=1).indices == targets[:, None]).any(1).float().mean()
        print(f"step {step}: loss {loss.item():.4f} hit@5 {hit.item():.2f} open sessions {len(memory)}")


if __name__ == "__main__":
    main()
