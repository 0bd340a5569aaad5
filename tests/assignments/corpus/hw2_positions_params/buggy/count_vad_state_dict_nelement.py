# question: count_parameters
# split: measure
# source: hustvl/VAD, tools/analysis_tools/get_params.py (the script as a function: the loaded
# source: checkpoint's model['state_dict'] is the given model's state_dict(), its total returned)
def count_parameters(model, trainable_only=False):
    state_dict = model.state_dict()
    all = 0
    for key in list(state_dict.keys()):
        all += state_dict[key].nelement()
    return all
