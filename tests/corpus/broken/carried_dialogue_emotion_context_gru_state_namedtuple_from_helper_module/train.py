"""Online fine-tuning of an emotion tracker on customer-support chats: the tracker is updated
after every turn (as it would be when adapting on live chats), with the dialogue context
carried from turn to turn within each batch of conversations."""
import torch
import torch.nn.functional as F

from dialogue import DialogueTracker, tracker_step

VOCAB, N_SPEAKERS, N_EMOTIONS, N_TURNS, TURN_LEN, N_DIALOGUES = 40, 2, 5, 4, 6, 3


def synthetic_chats(n_batches, generator):
    batches = []
    for _ in range(n_batches):
        tokens = torch.randint(0, VOCAB, (N_TURNS, N_DIALOGUES, TURN_LEN), generator=generator)
        speakers = torch.arange(N_TURNS).remainder(N_SPEAKERS).view(-1, 1).expand(-1, N_DIALOGUES)
        emotions = tokens[..., 0].remainder(N_EMOTIONS)
        batches.append((tokens, speakers, emotions))
    return batches


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    model = DialogueTracker(VOCAB, N_SPEAKERS, N_EMOTIONS)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=2e-3)
    for b, (tokens, speakers, emotions) in enumerate(synthetic_chats(2, gen)):
        context = None
        for turn in range(N_TURNS):
            result = tracker_step(model, tokens[turn], speakers[turn], context)
            loss = F.cross_entropy(result.logits, emotions[turn])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            context = result.context
            acc = (result.logits.argmax(-1) == emotions[turn]).float().mean().item()
            print(f"batch {b} turn {turn} loss {loss.item():.4f} acc {acc:.2f}")


if __name__ == "__main__":
    main()
