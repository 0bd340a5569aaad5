# split: measure
# source: Grimm114514/NLP-homework, 第二次作业/train.py (train_model: train_X and train_y are ids and
# source: labels, its defaults epochs=50 and lr=0.01 the stub's; it returned nothing, the stub returns
# source: each epoch's loss.item())
import torch.nn as nn
import torch.optim as optim


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_X, train_y = ids, labels
    # 1. 定义损失函数 (多分类问题通常用交叉熵)
    criterion = nn.CrossEntropyLoss()

    # 2. 定义优化器 (Adam 通常比 SGD 收敛快)
    optimizer = optim.Adam(model.parameters(), lr=lr)

    print(f"开始训练 {model.__class__.__name__} ...")

    losses = []
    for epoch in range(epochs):
        optimizer.zero_grad()  # 梯度清零

        # 前向传播
        output = model(train_X)

        # 计算损失
        loss = criterion(output, train_y)

        # 反向传播与更新参数
        loss.backward()
        optimizer.step()
        losses.append(loss.item())

        if (epoch + 1) % 10 == 0:
            print(f"Epoch [{epoch+1}/{epochs}], Loss: {loss.item():.4f}")

    print("训练完成！\n")
    return losses
