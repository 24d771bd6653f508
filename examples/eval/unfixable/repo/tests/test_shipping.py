from shipping import cost


def test_first_kilogram():
    assert cost(0.5) == 500
    assert cost(1) == 500


def test_whole_kilograms():
    assert cost(2) == 700
    assert cost(3) == 900


def test_started_kilograms():
    assert cost(1.5) == 700
    assert cost(2.5) == 900
