from app.calc import multiply


def test_multiply():
    assert multiply(2, 3) == 6
