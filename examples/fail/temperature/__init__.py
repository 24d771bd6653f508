"""Temperature conversions."""


def fahrenheit(c):
    """Converts degrees Celsius to degrees Fahrenheit."""
    return c * 9 / 5 + 32


def celsius(f):
    """Converts degrees Fahrenheit to degrees Celsius."""
    return (f - 32) * 5 / 9


def feels(c):
    """Describes a temperature in degrees Celsius: cold below 10, hot from 30 on."""
    if c < 10:
        return "cold"
    if c > 30:
        return "hot"
    return "mild"
