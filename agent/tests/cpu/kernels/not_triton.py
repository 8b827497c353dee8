"""A plain Python file with no Triton kernel."""


def add(a, b):
    return a + b
