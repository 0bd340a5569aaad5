# question: count_parameters
# fails: test_frozen_counted_by_default
# public: frozen parameters still count by default
# makes: count_always_trainable
# batch G3 (labelled before grading)
# split: measure
# source: JSchuurmans/tddl, src/tddl/models/utils.py (count_parameters; the stub's trainable_only is
# source: taken and never read)
def count_parameters(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters() if p.requires_grad) # TODO check if requires_grad is needed
