# question: count_parameters
# fails: test_tied_weights_count_once, test_buffers_do_not_count
# public: a weight shared by two layers counts once
# diagnosis: count_tied_twice, count_with_buffers
# makes both
# sums the state_dict: buffers count, and a tied weight counts once per key
def count_parameters(model, trainable_only=False):
    """Sums the state dict: buffers count, and tied weights count twice."""
    if trainable_only:
        return sum(p.numel() for p in model.parameters() if p.requires_grad)
    return sum(t.numel() for t in model.state_dict().values())
