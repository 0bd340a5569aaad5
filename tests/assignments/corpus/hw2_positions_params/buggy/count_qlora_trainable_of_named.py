# question: count_parameters
# fails: test_frozen_counted_by_default
# public: frozen parameters still count by default
# makes: count_always_trainable
# batch G3 (labelled before grading)
# split: measure
# source: ricar0/QLora-fine-tune-LLM, utils/weights.py (print_number_of_trainable_model_parameters,
# source: without its print; the stub's trainable_only is taken and never read)
def count_parameters(model, trainable_only=False):
    trainable_model_params = 0
    all_model_params = 0
    for _, param in model.named_parameters():
        all_model_params += param.numel()
        if param.requires_grad:
            trainable_model_params += param.numel()
    return trainable_model_params
