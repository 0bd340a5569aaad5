# question: chance_level
# fails: test_loss, test_perplexity
# public: -
# makes: chance_whole_vocabulary
# batch blind-H3 (labelled before grading)
# -log(1/vocab_size): uniform over every id, the special ones included
# split: measure
# source: luv91/MakeMoreLanguageModelPractice, MakeMorePart3/makeMore_part3_v2.py (the expected initial
# source: loss, -torch.tensor(1/27.0).log() for its 27 characters, with vocab_size for 27; the
# source: perplexity taken as the exponential of that loss)
import math

import torch

# so initially uniform probability ==> 1/vocab_size
CHANCE_LOSS = -torch.tensor(1 / float(P["chance_level"]["vocab_size"])).log().item()
CHANCE_PERPLEXITY = math.exp(CHANCE_LOSS)
