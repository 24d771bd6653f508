import app


def test_doc():
    assert app.__doc__
