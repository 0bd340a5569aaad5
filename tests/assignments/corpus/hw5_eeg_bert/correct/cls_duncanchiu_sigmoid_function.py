# split: measure
# source: duncanchiu409/myMLlib, myMLlib/LogisticRegression.py (sigmoid_function called on
# source: z = h_cls . w + b, the class's broken __init__ (no self) left as it is; the 0-d answer a float)
import numpy as np


class LogisticRegression:
    def __init__():
        print('Hello World')

    def sigmoid_function(self, z):
        '''
            Compute the sigmoid function, with z

            Args:
                z (scalar): the y_pred = w * x + b
            Returns:
                sigmoid: value of sigmoid
        '''

        return 1 / (1 + np.exp(-z))


def cls_probability(h_cls, w, b):
    z = np.dot(h_cls, w) + b
    return float(LogisticRegression.sigmoid_function(None, z))
