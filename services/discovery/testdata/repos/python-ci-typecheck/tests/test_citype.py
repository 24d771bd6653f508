from citype import double


def test_double():
    assert double(2) == 4
