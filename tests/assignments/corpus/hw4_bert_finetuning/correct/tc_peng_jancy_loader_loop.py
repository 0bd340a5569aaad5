# source: Peng-jancy/-, train/train_model.py (train_model: its train_loader is the one full batch
# source: [(ids, labels)] and num_epochs is epochs; it returned (model, loss_list), the stub the list)
def train_model(model, train_loader, num_epochs=100, lr=0.01):
    import torch
    import torch.nn as nn
    import torch.optim as optim

    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=lr)
    loss_list = []

    for epoch in range(num_epochs):
        epoch_loss = 0
        for X_batch, y_batch in train_loader:
            optimizer.zero_grad()
            outputs = model(X_batch)
            loss = criterion(outputs, y_batch)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        avg_loss = epoch_loss / len(train_loader)
        loss_list.append(avg_loss)
        if (epoch+1) % 10 == 0:
            print(f"Epoch [{epoch+1}/{num_epochs}], Loss: {avg_loss:.4f}")

    return model, loss_list


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    return train_model(model, [(ids, labels)], num_epochs=epochs, lr=lr)[1]
