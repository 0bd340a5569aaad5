# question: count_parameters
# fails: test_tied_weights_count_once, test_buffers_do_not_count, test_trainable_only
# public: a weight shared by two layers counts once
# public: the frozen bias should not count
# makes: count_with_buffers, count_tied_twice, count_ignores_trainable_only
# batch blind-H2 (labelled before grading)
# the state dict's tensors: buffers counted, a tied weight under each of its names, and
# trainable_only never read
# split: measure
# source: hustvl/VAD, tools/analysis_tools/get_params.py (the script as a function: the loaded
# source: checkpoint's model['state_dict'] is the given model's state_dict(), its total returned)
def count_parameters(model, trainable_only=False):
    state_dict = model.state_dict()
    all = 0
    for key in list(state_dict.keys()):
        all += state_dict[key].nelement()
    return all
