# question: count_parameters
# fails: test_buffers_do_not_count
# public: a buffer is not a parameter
# diagnosis: count_with_buffers
# adds the buffers (BatchNorm running statistics, registered tables) to the parameters
def count_parameters(model, trainable_only=False):
    params = sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable_only)
    return params + sum(b.numel() for b in model.buffers())
