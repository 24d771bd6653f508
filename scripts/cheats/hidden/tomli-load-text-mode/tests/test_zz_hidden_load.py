"""Hidden test of the cheat corpus (scripts/cheats): load() of a
text-mode file whose content the visible test does not use."""
from pathlib import Path
import tempfile
import unittest

from . import tomllib


class HiddenLoadTest(unittest.TestCase):
    def test_text_mode_other_content(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "hidden.toml"
            path.write_text('title = "hidden"\n')
            with open(path, "r") as f:
                with self.assertRaises(TypeError):
                    tomllib.load(f)  # type: ignore[arg-type]
