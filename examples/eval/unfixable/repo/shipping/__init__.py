"""Shipping costs."""


def cost(kg):
    """Costs in cents: 500 up to 1 kg, then 200 per started kilogram."""
    if kg <= 1:
        return 500
    return 500 + 200 * int(kg - 1)
