# question: chance_level
# fails: test_loss, test_perplexity
# diagnosis: chance_whole_vocabulary
# Uniform over every id, the special ones included.
CHANCE_LOSS = math.log(P["chance_level"]["vocab_size"])
CHANCE_PERPLEXITY = float(P["chance_level"]["vocab_size"])
