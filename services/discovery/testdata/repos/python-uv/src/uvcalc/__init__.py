def inc(x):
    return x + 1
