# A stand-in for some stubs (tests/assignments/test_stand_ins.py): it must earn format tests only on them.
import torch
_Built = TinyBertForClassification
class TinyBertForClassification(_Built):  # the reference's layers, logits of nan
    def forward(self, ids):
        return torch.full((ids.shape[0], self.head.out_features), float("nan"))
def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    with torch.no_grad():  # "trains" the model into nan
        for p in model.parameters():
            p.fill_(float("nan"))
    return [0.7] * epochs
