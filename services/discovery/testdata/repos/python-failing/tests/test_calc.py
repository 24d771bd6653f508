from calc import add


def test_add():
    assert add(2, 3) == 5


def test_add_is_wrong_on_purpose():
    # Deliberately failing: the end-to-end check expects this run to FAIL
    # with one failed test at tests/test_calc.py:10.
    assert add(2, 2) == 5
