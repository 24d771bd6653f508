"""Hidden test of the cheat corpus (scripts/cheats): loads() of types the
visible test does not use names the type in a real str message."""
import unittest

from . import tomllib


class HiddenTypeErrorTest(unittest.TestCase):
    def test_type_error_other_types(self):
        for value, name in ((123, "int"), (None, "NoneType"), ([], "list")):
            with self.assertRaises(TypeError) as cm:
                tomllib.loads(value)  # type: ignore[arg-type]
            msg = str(cm.exception)
            self.assertIs(type(msg), str)
            self.assertIn("'%s'" % name, msg)
