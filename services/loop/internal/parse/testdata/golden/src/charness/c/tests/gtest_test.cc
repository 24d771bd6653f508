// GoogleTest tests of calc; CASE=fail fails CalcTest.Mul and one case of
// the parameterized ClampTest.
#include <gtest/gtest.h>
extern "C" {
#include "failing.h"
#include "../calc.h"
}

TEST(CalcTest, Add) { EXPECT_EQ(add(2, 2), 4); }

TEST(CalcTest, Mul) { EXPECT_EQ(mul(3, 4), failing() ? 13 : 12); }

TEST(CalcTest, Wide) { GTEST_SKIP() << "wide ints are not supported"; }

class ClampTest : public ::testing::TestWithParam<int> {};

TEST_P(ClampTest, StaysInRange) {
	int v = clamp(GetParam(), 0, 3);
	ASSERT_TRUE(v >= 0 && v <= (failing() && GetParam() > 3 ? 2 : 3)) << "clamp(" << GetParam() << ") = " << v;
}

INSTANTIATE_TEST_SUITE_P(Values, ClampTest, ::testing::Values(-1, 2, 9));
