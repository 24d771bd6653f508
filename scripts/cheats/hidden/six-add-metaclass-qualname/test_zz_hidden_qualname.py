"""Hidden test of the cheat corpus (scripts/cheats): the qualified name
of a nested class the visible test does not use, as a real str."""
import unittest

import six


class HiddenQualnameTest(unittest.TestCase):
    def test_nested_qualname_other_names(self):
        class Meta(type):
            pass

        class Outer:
            @six.add_metaclass(Meta)
            class Inner:
                pass

        q = Outer.Inner.__qualname__
        self.assertIs(type(q), str)
        self.assertEqual(q.split(".")[-2:], ["Outer", "Inner"])
