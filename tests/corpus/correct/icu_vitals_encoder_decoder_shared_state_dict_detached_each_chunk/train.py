"""Early-warning model on hourly ICU vitals (heart rate, MAP, SpO2, respiratory rate,
temperature). Two modules cooperate through a shared state dict: a GRU-cell encoder keeps
the patient state "h", and a risk decoder keeps a leaky risk memory "risk" with a learned
decay. Stays are trained in chunks of hours with truncated BPTT; the state dict is detached
at every chunk boundary and rebuilt for every new cohort of stays."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_VITALS, HIDDEN, CHUNK, N_CHUNKS, PATIENTS = 5, 20, 6, 3, 8


class VitalsEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(N_VITALS, HIDDEN)

    def forward(self, vitals, state):
        state["h"] = self.cell(vitals, state["h"])
        return state


class RiskDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Linear(HIDDEN, 1)
        self.decay_logit = nn.Parameter(torch.tensor(0.5))

    def forward(self, state):
        decay = torch.sigmoid(self.decay_logit)
        state["risk"] = decay * state["risk"] + (1 - decay) * self.score(state["h"]).squeeze(1)
        return state["risk"], state


def fresh_state():
    return {"h": torch.zeros(PATIENTS, HIDDEN), "risk": torch.zeros(PATIENTS)}


def cohort(gen):
    hours = CHUNK * N_CHUNKS
    deteriorates = torch.rand(PATIENTS, generator=gen) < 0.5
    onset = torch.randint(hours // 3, hours, (PATIENTS,), generator=gen)
    t = torch.arange(hours)[None, :]
    after_onset = ((t >= onset[:, None]) & deteriorates[:, None]).float()
    drift = after_onset * (t - onset[:, None]).clamp(min=0) / 4
    vitals = 0.3 * torch.randn(PATIENTS, hours, N_VITALS, generator=gen)
    vitals[:, :, 0] += drift
    vitals[:, :, 1] -= drift
    vitals[:, :, 2] -= 0.5 * drift
    labels = after_onset
    return vitals, labels


def train_cohort(encoder, decoder, optimizer, vitals, labels):
    state = fresh_state()
    losses = []
    for c in range(N_CHUNKS):
        chunk_loss = 0.0
        for hour in range(c * CHUNK, (c + 1) * CHUNK):
            state = encoder(vitals[:, hour], state)
            risk, state = decoder(state)
            chunk_loss = chunk_loss + F.binary_cross_entropy_with_logits(risk, labels[:, hour])
        chunk_loss = chunk_loss / CHUNK
        optimizer.zero_grad()
        chunk_loss.backward()
        optimizer.step()
        state = {name: value.detach() for name, value in state.items()}
        losses.append(chunk_loss.item())
    return losses


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(17)
    encoder, decoder = VitalsEncoder(), RiskDecoder()
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=5e-3)
    for k in range(2):
        losses = train_cohort(encoder, decoder, optimizer, *cohort(gen))
        print(f"cohort {k} chunk losses " + " ".join(f"{v:.4f}" for v in losses))
    print(f"decay {torch.sigmoid(decoder.decay_logit).item():.4f}")
    params = list(encoder.parameters()) + list(decoder.parameters())
    print(f"checksum {sum(p.sum().item() for p in params):.6f}")


if __name__ == "__main__":
    main()
