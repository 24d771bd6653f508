// Catch2 (v2, single header) tests of calc; CASE=fail fails Mul and a
// section of Clamp.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
extern "C" {
#include "failing.h"
#include "../calc.h"
}

TEST_CASE("Add", "[calc]") { REQUIRE(add(2, 2) == 4); }

TEST_CASE("Mul", "[calc]") { REQUIRE(mul(3, 4) == (failing() ? 13 : 12)); }

TEST_CASE("Clamp", "[calc]") {
	SECTION("low") { CHECK(clamp(-1, 0, 3) == 0); }
	SECTION("high") { CHECK(clamp(9, 0, 3) == (failing() ? 4 : 3)); }
}

TEST_CASE("Wide", "[.][calc]") { REQUIRE(false); }
