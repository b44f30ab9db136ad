"""A lean knowledge-distillation loss: cross-entropy between the teacher's softened
probabilities and the student's, with the closed-form gradient (p_s - p_t) / (B * T) written by
hand so that no softmax intermediate beyond p_s has to be kept for backward."""
import torch
import torch.nn.functional as F


class SoftTargetCrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, student_logits, teacher_probs, temperature):
        log_p_s = F.log_softmax(student_logits / temperature, dim=1)
        loss = -(teacher_probs * log_p_s).sum(1).mean()
        ctx.temperature = temperature
        ctx.save_for_backward(log_p_s.exp(), teacher_probs)
        return loss

    @staticmethod
    def backward(ctx, grad_out):
        p_s, p_t = ctx.saved_tensors
        grad = grad_out * (p_s - p_t) / (p_s.shape[0] * ctx.temperature)
        return grad, None, None


def soft_target_ce(student_logits, teacher_logits, temperature):
    teacher_probs = F.softmax(teacher_logits / temperature, dim=1)
    return SoftTargetCrossEntropy.apply(student_logits, teacher_probs, temperature)
