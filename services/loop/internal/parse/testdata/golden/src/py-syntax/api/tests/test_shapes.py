import unittest

from app.shapes import area


class TestShapes(unittest.TestCase):
    def test_area(self):
        self.assertEqual(area(2, 3), 6)
