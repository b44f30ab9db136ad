"""Deep knowledge tracing: an LSTM reads a student's (skill, correct) interactions and
predicts, for every skill, the probability that the next answer is correct. Students have
sequences of different lengths, so each batch is processed student by student and the
per-student losses are summed into one batch loss. main() is a short smoke run that
returns after a few optimizer steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_SKILLS, HIDDEN, BATCH, EPOCHS = 6, 20, 4, 3


class DKT(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(2 * N_SKILLS, HIDDEN, batch_first=True)
        self.out = nn.Linear(HIDDEN, N_SKILLS)

    def forward(self, skills, correct):
        x = F.one_hot(skills + N_SKILLS * correct, 2 * N_SKILLS).float()
        h, _ = self.lstm(x[None])
        return self.out(h[0])


def simulate_students(n):
    students = []
    for _ in range(n):
        length = int(torch.randint(5, 12, ()))
        ability = torch.rand(N_SKILLS)
        skills = torch.randint(0, N_SKILLS, (length,))
        practice = torch.zeros(N_SKILLS)
        correct = []
        for s in skills.tolist():
            p = torch.sigmoid(4 * ability[s] - 2 + 0.5 * practice[s])
            correct.append(int(torch.rand(()) < p))
            practice[s] += 1
        students.append((skills, torch.tensor(correct)))
    return students


def main(max_steps=6):
    torch.manual_seed(0)
    students = simulate_students(16)
    model = DKT()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    step = 0
    batch_loss = 0.0
    for epoch in range(EPOCHS):
        for start in range(0, len(students), BATCH):
            group = students[start:start + BATCH]
            for skills, correct in group:
                logits = model(skills[:-1], correct[:-1])
                next_logit = logits.gather(1, skills[1:, None]).squeeze(1)
                student_loss = F.binary_cross_entropy_with_logits(next_logit, correct[1:].float())
                batch_loss = batch_loss + student_loss / len(group)
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
            step += 1
            print(f"epoch {epoch} step {step} bce {batch_loss.item():.4f}")
            if step == max_steps:
                return model
    return model


if __name__ == "__main__":
    main()
