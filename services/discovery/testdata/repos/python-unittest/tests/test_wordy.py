import unittest

from wordy import shout


class ShoutTest(unittest.TestCase):
    def test_shout(self):
        self.assertEqual(shout("hi"), "HI!")

    def test_empty(self):
        self.assertEqual(shout(""), "!")
