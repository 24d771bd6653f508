from flitcalc import mul, neg


def test_mul():
    assert mul(2, 3) == 6


def test_neg():
    assert neg(4) == -4
