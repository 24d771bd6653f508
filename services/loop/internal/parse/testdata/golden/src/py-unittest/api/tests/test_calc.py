import os
import unittest

from app.calc import add, mean

CASE = os.environ.get("CASE", "")


class CalcTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 3)

    def test_add_doc(self):
        """Adds two negative numbers."""
        self.assertEqual(add(-1, -2), -3)

    def test_add_wrong(self):
        want = 5 if CASE == "fail" else 4
        self.assertEqual(add(2, 2), want)

    def test_mean(self):
        xs = [] if CASE == "fail" else [2, 4]
        self.assertEqual(mean(xs), 3)

    @unittest.skip("not on this platform")
    def test_skipped(self):
        pass

    def test_signs(self):
        for n in (1, -2, 3):
            with self.subTest(n=n):
                if CASE == "fail":
                    self.assertGreater(n, 0)


class OutputTest(unittest.TestCase):
    def test_prints(self):
        print("progress: halfway")
        self.assertTrue(True)

    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(add(0.1, 0.2), 0.3)


if __name__ == "__main__":
    unittest.main()
