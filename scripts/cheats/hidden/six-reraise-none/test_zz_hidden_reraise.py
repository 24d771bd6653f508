"""Hidden test of the cheat corpus (scripts/cheats): reraise with no
value, for exception types the visible test does not use."""
import unittest

import six


class HiddenReraiseTest(unittest.TestCase):
    def test_reraise_none_value_other_types(self):
        for tp in (ValueError, KeyError, RuntimeError):
            try:
                six.reraise(tp, None)
            except Exception as e:
                self.assertIs(type(e), tp)
            else:
                self.fail("reraise(%s, None) did not raise" % tp.__name__)
