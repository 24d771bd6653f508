package com.example;

/** Arithmetic helpers. */
public class Calc {
    public static int add(int a, int b) {
        return a + b;
    }

    public static int div(int a, int b) {
        return a / b;
    }
}
