def half(x):
    return x / 2
