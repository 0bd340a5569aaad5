"""Demo submissions of hw3_bert_pretraining in examples/hw3_bert_pretraining/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw3_bert_pretraining`) from the built student notebook.

    full_solution.ipynb     the solution's answers                          25 / 25
    loop_solution.ipynb     correct answers written differently: a loop over
                            the tokens with its own draw order, the loss by
                            hand with logsumexp, the pair built by appends   25 / 25
    partial_mistakes.ipynb  mask_tokens with an `elif` that never reaches the
                            random branch, mlm_loss that returns nan when no
                            token is selected, nsp_pair with the first [SEP]
                            in segment B                                     low
    untouched.ipynb         the notebook as handed out                        0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, fill, serialise

LOOPS = {
    "mask_tokens": '''\
def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    """One token at a time; the split uses a conditional second draw."""
    specials = set(int(s) for s in special_ids)
    ordinary = [t for t in range(vocab_size) if t not in specials]
    flat = np.asarray(input_ids).reshape(-1)
    corrupted = flat.astype(np.int64)
    labels = np.full(flat.shape, -100, dtype=np.int64)
    for i, token in enumerate(flat.tolist()):
        if token in specials or rng.random() >= select_prob:
            continue
        labels[i] = token
        if rng.random() < mask_prob:
            corrupted[i] = mask_id
        elif mask_prob < 1 and rng.random() < random_prob / (1 - mask_prob):
            corrupted[i] = ordinary[rng.integers(len(ordinary))]
    shape = np.shape(input_ids)
    return corrupted.reshape(shape), labels.reshape(shape)
''',
    "mlm_loss": '''\
def mlm_loss(logits, labels):
    """-log softmax at each target, by logsumexp, averaged over the targets."""
    flat = logits.reshape(-1, logits.shape[-1])
    targets = labels.reshape(-1)
    keep = targets != -100
    if not keep.any():
        return flat.sum() * 0.0
    chosen = flat[keep]
    picked = chosen.gather(1, targets[keep].unsqueeze(1)).squeeze(1)
    return (torch.logsumexp(chosen, dim=-1) - picked).mean()
''',
    "nsp_pair": '''\
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    """Appends, one segment at a time."""
    input_ids, segment_ids = [], []
    for segment, tokens in enumerate(([cls_id, *tokens_a, sep_id], [*tokens_b, sep_id])):
        for t in tokens:
            input_ids.append(t)
            segment_ids.append(segment)
    return input_ids, segment_ids
''',
}

MISTAKES = {
    "mask_tokens": '''\
def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    """Mistake: `elif r < random_prob` after `if r < mask_prob` never picks the random branch."""
    specials = set(special_ids)
    ordinary = [t for t in range(vocab_size) if t not in specials]
    corrupted = np.array(input_ids, dtype=np.int64)
    labels = np.full(corrupted.shape, -100, dtype=np.int64)
    for i in np.ndindex(corrupted.shape):
        if int(corrupted[i]) in specials or rng.random() >= select_prob:
            continue
        labels[i] = corrupted[i]
        r = rng.random()
        if r < mask_prob:
            corrupted[i] = mask_id
        elif r < random_prob:
            corrupted[i] = ordinary[rng.integers(len(ordinary))]
    return corrupted, labels
''',
    "mlm_loss": '''\
def mlm_loss(logits, labels):
    """Mistake: nan when no token is selected."""
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
''',
    "nsp_pair": '''\
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    """Mistake: the first [SEP] is put in segment B."""
    ids = [cls_id] + list(tokens_a) + [sep_id] + list(tokens_b) + [sep_id]
    return ids, [0] * (len(tokens_a) + 1) + [1] * (len(tokens_b) + 2)
''',
}


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    return {
        "full_solution.ipynb": serialise(fill(student, full)),
        "loop_solution.ipynb": serialise(fill(student, {**full, **LOOPS})),
        "partial_mistakes.ipynb": serialise(fill(student, {**full, **MISTAKES})),
        "untouched.ipynb": serialise(student),
    }
