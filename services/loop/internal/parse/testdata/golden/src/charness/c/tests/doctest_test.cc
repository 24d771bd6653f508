// doctest tests of calc; CASE=fail fails Mul and one check of Clamp.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
extern "C" {
#include "failing.h"
#include "../calc.h"
}

TEST_CASE("Add") { CHECK(add(2, 2) == 4); }

TEST_CASE("Mul") { REQUIRE(mul(3, 4) == (failing() ? 13 : 12)); }

TEST_CASE("Clamp") {
	CHECK(clamp(-1, 0, 3) == 0);
	CHECK(clamp(9, 0, 3) == (failing() ? 4 : 3));
}

TEST_CASE("Wide" * doctest::skip()) { CHECK(false); }
