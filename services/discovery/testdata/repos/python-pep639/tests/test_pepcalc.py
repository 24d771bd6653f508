from pepcalc import half


def test_half():
    assert half(4) == 2
