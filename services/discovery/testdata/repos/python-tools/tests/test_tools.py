import tools_pkg


def test_import():
    assert tools_pkg.__doc__
