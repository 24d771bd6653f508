from temperature import celsius, fahrenheit, feels


def test_fahrenheit():
    assert fahrenheit(0) == 32
    assert fahrenheit(100) == 212


def test_round_trip():
    for c in (-40, 0, 37, 100):
        assert celsius(fahrenheit(c)) == c


def test_feels():
    assert feels(-5) == "cold"
    assert feels(20) == "mild"
    assert feels(30) == "hot"
