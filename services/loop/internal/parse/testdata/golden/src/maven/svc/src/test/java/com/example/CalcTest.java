package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Ignore;
import org.junit.Test;

public class CalcTest {
    private static final String MODE = System.getenv().getOrDefault("CASE", "pass");

    @Test
    public void adds() {
        assertEquals(3, Calc.add(1, 2));
    }

    @Test
    public void addsWrong() {
        assertEquals(MODE.equals("fail") ? 5 : 4, Calc.add(2, 2));
    }

    @Test
    public void divides() {
        int b = MODE.equals("fail") ? 0 : 2;
        assertEquals(2, Calc.div(4, b));
    }

    @Ignore("not here")
    @Test
    public void skipped() {
    }
}
