"""Hidden test of the cheat corpus (scripts/cheats): no iterables, given
as containers the visible test does not use."""
from unittest import TestCase

import more_itertools as mi


class HiddenInterleaveEvenlyTests(TestCase):
    def test_no_iterables_other_containers(self):
        self.assertEqual(list(mi.interleave_evenly(())), [])
        self.assertEqual(list(mi.interleave_evenly((), lengths=())), [])
