from grades import letter


def test_a():
    assert letter(100) == "A"
    assert letter(90) == "A"


def test_b_and_c():
    assert letter(89) == "B"
    assert letter(80) == "B"
    assert letter(75) == "C"


def test_f():
    assert letter(0) == "F"
    assert letter(69) == "F"
