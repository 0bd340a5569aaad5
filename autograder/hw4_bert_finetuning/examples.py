"""Demo submissions of hw4_bert_finetuning in examples/hw4_bert_finetuning/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw4_bert_finetuning`) from the built student notebook.

    full_solution.ipynb     the solution's answers                          16 / 16
    partial_mistakes.ipynb  post-norm encoder layers and a loop that records
                            the loss after the step, from a second forward
                            pass; everything else correct                   6 / 16
    loop_only_mistake.ipynb the model right, the loop with a hard-coded
                            learning rate: only train_classifier loses      13 / 16
    untouched.ipynb         the notebook as handed out                       0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, fill, serialise

POST_NORM_LAYER = '''\
class EncoderLayer(nn.Module):
    """Mistake: post-norm (the original Transformer's), normalising after each sum."""

    def __init__(self, h, heads):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)

    def forward(self, x):
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + self.ff(x))
'''

LOSS_AFTER_STEP = '''\
def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    """Mistake: each epoch's loss is measured again after the update."""
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(epochs):
        opt.zero_grad()
        loss_fn(model(ids), labels).backward()
        opt.step()
        with torch.no_grad():
            losses.append(loss_fn(model(ids), labels).item())
    return losses
'''

HARD_CODED_LR = '''\
def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    """Mistake: the learning rate is written into the optimizer, lr is ignored."""
    opt = torch.optim.Adam(model.parameters(), lr=0.001)
    losses = []
    for _ in range(epochs):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
'''


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    return {
        "full_solution.ipynb": serialise(fill(student, full)),
        "partial_mistakes.ipynb": serialise(fill(student, {
            **full, "EncoderLayer": POST_NORM_LAYER, "train_classifier": LOSS_AFTER_STEP})),
        "loop_only_mistake.ipynb": serialise(fill(student, {
            **full, "train_classifier": HARD_CODED_LR})),
        "untouched.ipynb": serialise(student),
    }
